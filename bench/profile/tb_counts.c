// SPDX-License-Identifier: GPL-2.0
/*
 * tb_counts - a QEMU TCG plugin that counts how often each translated
 * block runs. At exit it writes one line per block to the file given as
 * out=PATH: "<guest pc in hex> <instructions in the block> <executions>".
 * The blocks' instructions times their executions is the number of guest
 * instructions run, which bench/profile/fold.py attributes to the
 * functions of a vmlinux. Built against QEMU's qemu-plugin.h (see
 * bench/profile/profile.sh); QEMU must run single-threaded TCG (icount).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct block {
	uint64_t pc;
	uint64_t insns;
	uint64_t runs;		/* the inline counter QEMU adds to */
	struct block *next;
};

#define HASH_BITS	16
static struct block *table[1u << HASH_BITS];
static const char *out_path;

static unsigned int hash(uint64_t pc, uint64_t insns)
{
	return (unsigned int)(((pc ^ (insns << 40)) * 0x9e3779b97f4a7c15ull) >>
			      (64 - HASH_BITS));
}

/* The counter of block (@pc, @insns), made on first use; NULL if no memory */
static struct block *find(uint64_t pc, uint64_t insns)
{
	struct block **slot = &table[hash(pc, insns)], *b;

	for (b = *slot; b; b = b->next)
		if (b->pc == pc && b->insns == insns)
			return b;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->pc = pc;
	b->insns = insns;
	b->next = *slot;
	*slot = b;
	return b;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = find(qemu_plugin_tb_vaddr(tb),
			       qemu_plugin_tb_n_insns(tb));

	(void)id;
	if (b)
		qemu_plugin_register_vcpu_tb_exec_inline(tb,
				QEMU_PLUGIN_INLINE_ADD_U64, &b->runs, 1);
}

static void write_counts(qemu_plugin_id_t id, void *data)
{
	FILE *f = fopen(out_path, "w");
	unsigned int i;
	struct block *b;

	(void)id;
	(void)data;
	if (!f) {
		perror(out_path);
		return;
	}
	for (i = 0; i < (1u << HASH_BITS); i++)
		for (b = table[i]; b; b = b->next)
			if (b->runs)
				fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
					b->pc, b->insns, b->runs);
	fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
	if (!out_path) {
		fprintf(stderr, "tb_counts: want out=PATH\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, write_counts, NULL);
	return 0;
}
