#!/bin/bash
# A database: Debian's mariadb.service (installed, not started at boot)
# under a drop-in with SystemCallFilter=@system-service plus the io_uring
# system calls, with kernel.seccomp.uring_force=1 on the patched kernel:
# InnoDB says it uses io_uring (liburing), a table of 5000 rows is
# created, written and read back, the server restarted (its buffer pool
# empty: the rows come back through InnoDB's io_uring reads) and the
# rows read again; the server was never killed or restarted by a
# refused call, and no row was lost.
set -euo pipefail
# shellcheck source=scripts/real/tap.sh
source /tests/tap.sh
# shellcheck source=scripts/real/mariadb.sh
source /tests/mariadb.sh
echo "# suite: real/mariadb-system-service"
tap_force_uring
mkdir -p /run/systemd/system/mariadb.service.d
cat >/run/systemd/system/mariadb.service.d/uring-seccomp.conf <<'CONF'
[Service]
SystemCallFilter=@system-service
SystemCallFilter=io_uring_setup io_uring_enter io_uring_register
CONF
systemctl daemon-reload

rows=5000
# count, sum of ids, sum of CRC32s of the values
want="$rows	$((rows * (rows + 1) / 2))"

start="$(date +%s)"
check "mariadb.service starts under @system-service" systemctl start mariadb.service
echo "# mariadb started in $(($(date +%s) - start)) s"
log="$(journalctl -b -u mariadb.service --no-pager -o cat)"
grep -iE 'uring|aio' <<<"$log" | sed 's/^/# mariadb: /' || true
check "InnoDB says it uses io_uring" grep -qiE 'InnoDB: Using (liburing|io_uring)' <<<"$log"

check "create a table" sql "CREATE DATABASE real_sw;
	CREATE TABLE real_sw.t (id INT PRIMARY KEY, v CHAR(32) NOT NULL) ENGINE=InnoDB"
# (Debian's server configuration caps a recursive CTE at 1000 rows)
check "insert $rows rows" sql "SET SESSION max_recursive_iterations = $rows;
	INSERT INTO real_sw.t WITH RECURSIVE s(n) AS
	(SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < $rows) SELECT n, MD5(n) FROM s"
query="SELECT COUNT(*), SUM(id), SUM(CRC32(v)) FROM real_sw.t"
before="$(sql "$query" || true)"
check "read the rows back ($before)" grep -qx "$want	[0-9]*" <<<"$before"

check "restart mariadb.service" systemctl restart mariadb.service
after="$(sql "$query" || true)"
# all rows, and the same values as before the restart
same_rows() {
	[[ "$after" == "$before" && "$after" == "$want"$'\t'[0-9]* ]]
}
check "the same rows after the restart ($after)" same_rows
restarts="$(systemctl show -P NRestarts mariadb.service)"
check "mariadb.service ran without a restart of its own (NRestarts=$restarts)" \
	test "$restarts" = 0
log="$(journalctl -b -u mariadb.service --no-pager -o cat)"
bad="$(grep -iE 'SIGSYS|signal 31|io_uring.*(fail|error)|\[ERROR\]' <<<"$log" |
	sed 's/^/# mariadb: /' || true)"
[[ -z "$bad" ]] || echo "$bad"
check "no refusal or error in mariadb's log" test -z "$bad"
systemctl stop mariadb.service || true
tap_end
