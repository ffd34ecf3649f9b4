#!/bin/bash
# Sourced by the MariaDB suites of the real-software guest (real/suites/4*).
# sql STATEMENT: runs it through Debian's mariadb client, prints its
# result, and its errors as TAP comments on stderr; the client's status.
sql() {
	local rc=0
	mariadb --batch --skip-column-names -e "$1" 2>/run/sql.err || rc=$?
	sed 's/^/# mariadb: /' /run/sql.err >&2
	return "$rc"
}
