/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for seccomp filters that read the extension area, struct
 * seccomp_ext, which follows struct seccomp_data in the filter's input
 * when the filter is loaded with SECCOMP_FILTER_FLAG_EXT_ARGS. For
 * openat2, clone3, connect and bind (and IORING_OP_OPENAT2, CONNECT and
 * BIND) its data holds the struct behind the arguments, as the kernel
 * copied it once and then uses it.
 *
 * Load a field by name instead of computing offsets by hand:
 *
 *	SECCOMP_EXT_LOAD(zero_offset),
 *	BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, sizeof(struct open_how), 0, 1),
 *	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | E2BIG),
 *	SECCOMP_EXT_LOAD_LO(struct open_how, resolve),
 *	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, RESOLVE_BENEATH, 1, 0),
 *	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
 *
 * cBPF loads 32-bit words only, at offsets that are multiples of 4: a
 * 64-bit field is two loads (_LO and _HI), and a smaller field is part of
 * the word SECCOMP_EXT_LOAD_WORD() loads (sockaddr_in's family and port
 * share the first word: compare it with SECCOMP_EXT_INET_WORD0()).
 * Values are as stored: ports and IPv4 addresses in network byte order.
 */
#ifndef URING_SECCOMP_EXT_H
#define URING_SECCOMP_EXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* Offset in the filter's input of a field of struct seccomp_ext */
#define SECCOMP_EXT_OFF(field) \
	(sizeof(struct seccomp_data) + offsetof(struct seccomp_ext, field))

/* Offset in the filter's input of @member of the struct @type it shows */
#define SECCOMP_EXT_DATA_OFF(type, member) \
	(SECCOMP_EXT_OFF(data) + offsetof(type, member))

/* Where the low and the high half of a 64-bit field are */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SECCOMP_EXT_LO_OFF	0
#define SECCOMP_EXT_HI_OFF	4
#else
#define SECCOMP_EXT_LO_OFF	4
#define SECCOMP_EXT_HI_OFF	0
#endif

/* Load a 32-bit field of the header (flags, arg, size, zero_offset) */
#define SECCOMP_EXT_LOAD(field) \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SECCOMP_EXT_OFF(field))

/* Load the low or high 32 bits of a 64-bit @member of @type */
#define SECCOMP_EXT_LOAD_LO(type, member) \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, \
		 SECCOMP_EXT_DATA_OFF(type, member) + SECCOMP_EXT_LO_OFF)
#define SECCOMP_EXT_LOAD_HI(type, member) \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, \
		 SECCOMP_EXT_DATA_OFF(type, member) + SECCOMP_EXT_HI_OFF)

/* Load the aligned 32-bit word that holds @member of @type */
#define SECCOMP_EXT_LOAD_WORD(type, member) \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, \
		 SECCOMP_EXT_DATA_OFF(type, member) & ~3u)

/* Load word @i (bytes 4i..4i+3) of the struct */
#define SECCOMP_EXT_LOAD_DATA_WORD(i) \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SECCOMP_EXT_OFF(data) + 4 * (i))

/*
 * The first word of a struct sockaddr_in or sockaddr_in6 for @family and
 * @port (host byte order), as SECCOMP_EXT_LOAD_DATA_WORD(0) loads it.
 */
static inline uint32_t SECCOMP_EXT_INET_WORD0(uint16_t family, uint16_t port)
{
	uint16_t half[2] = { family, htons(port) };
	uint32_t word;

	memcpy(&word, half, sizeof(word));
	return word;
}

/*
 * Word @i of the bytes of @addr (@len of them, zero-filled after), for
 * comparing an address such as a struct sockaddr_un word by word.
 */
static inline uint32_t seccomp_ext_word(const void *addr, size_t len,
					size_t i)
{
	uint32_t word = 0;

	if (4 * i < len)
		memcpy(&word, (const char *)addr + 4 * i,
		       len - 4 * i < 4 ? len - 4 * i : 4);
	return word;
}

#endif
