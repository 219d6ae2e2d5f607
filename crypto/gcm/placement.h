/*
 * crypto/gcm/placement.h: where the internal key and stream live inside
 * the public gcm_key and gcm_stream, whatever address those are at.
 *
 * The public types ask for 64- and 16-byte alignment, but C programs put
 * objects where their allocator or their own structs put them: malloc
 * promises 16 bytes (8 on some 32-bit systems), a packed struct or a
 * hand-rolled allocator 1, and a key in memory of gcm_key_size_for bytes
 * is wherever the caller's memory is. The kernels need their key material
 * 16-byte aligned (legacy-SSE memory operands such as `aesenc xmm, m128`
 * fault below that), so the internal struct is not at the start of the
 * public bytes but at the first suitably aligned address after byte 0:
 *
 *   opaque[0]            the placement byte: the internal struct's offset
 *                        (1 .. align), or 0 when not initialised
 *   opaque[off ..]       the internal struct, at an address that is a
 *                        multiple of `align` (16 for keys and streams)
 *
 * The public objects are `align` bytes larger than the internal structs to
 * leave room for this (gcm_key_size_for counts it in). Every call
 * recomputes the offset from the object's address and compares it with
 * the placement byte: one byte load, an add, a mask and a compare.
 *
 * An object copied with memcpy to an address with another remainder mod
 * `align` keeps its old placement byte, which then differs from the
 * computed one: the internal struct sits, intact, at a misaligned address.
 * A key is read-only and may be shared between threads, so a call cannot
 * move it back; aead.c copies it to an aligned place on the stack for the
 * call instead (correct, slower). A stream belongs to one thread, so its
 * next call moves it to the right place (memmove) and goes on.
 *
 * Only byte pointers are formed from the public objects here: nothing reads
 * a member of gcm_key or gcm_stream, so no access depends on the alignment
 * of the public type.
 */
#ifndef LIBGCM_CRYPTO_GCM_PLACEMENT_H
#define LIBGCM_CRYPTO_GCM_PLACEMENT_H

#include <gcm/gcm.h>

#include <stddef.h>
#include <stdint.h>

#include "mode.h"

/* Alignment of the internal structs inside the public objects: what the
 * internal types declare (static assertions in aead.c check it). */
#define GCM_KEY_PLACE_ALIGN 16
#define GCM_STREAM_PLACE_ALIGN 16

/* The offset of the first multiple of `align` after the byte at `base`:
 * 1 .. align, never 0 (0 in the placement byte means "not initialised"). */
static inline size_t gcm_place_offset(const void *base, size_t align) {
  uintptr_t a = (uintptr_t)base;
  return align - (size_t)(a & (uintptr_t)(align - 1));
}

/* The aligned place of the internal struct inside the public object whose
 * bytes start at `b`, for initialising it. */
static inline void *gcm_place_at(unsigned char *b, size_t align) {
  return b + gcm_place_offset(b, align);
}

/* The internal struct of the public object at `b` when its placement byte
 * says it is at this address's aligned place, else NULL: not initialised,
 * cleaned up, or a memcpy copy whose struct is at another offset
 * (gcm_place_moved tells which). The caller checks the struct's magic. */
static inline const void *gcm_place_current(const unsigned char *b,
                                            size_t align) {
  size_t off = gcm_place_offset(b, align);
  return b[0] == off ? b + off : NULL;
}

/* The offset of the internal struct of a memcpy copy of the public object
 * at `b` whose placement byte is not this address's (1 .. align), or 0
 * when the object is at its place or not initialised at all. Its magic is
 * checked by the caller, after copying the struct to an aligned place. */
static inline size_t gcm_place_moved(const unsigned char *b, size_t align) {
  size_t off = b[0];
  if (off == 0 || off > align || off == gcm_place_offset(b, align)) return 0;
  return off;
}

static inline unsigned char *gcm_key_bytes(gcm_key *k) {
  return (unsigned char *)(void *)k;
}
static inline const unsigned char *gcm_key_cbytes(const gcm_key *k) {
  return (const unsigned char *)(const void *)k;
}
static inline unsigned char *gcm_stream_bytes(gcm_stream *s) {
  return (unsigned char *)(void *)s;
}

/* The aligned place of the internal key inside `k`, for initialising it. */
static inline struct gcm_key_st *gcm_key_place(gcm_key *k) {
  return (struct gcm_key_st *)gcm_place_at(gcm_key_bytes(k),
                                           GCM_KEY_PLACE_ALIGN);
}

/* The internal key of `k` when it is initialised and at its aligned place,
 * else NULL: not initialised, cleaned up, or a memcpy copy whose internal
 * key is at another offset (gcm_key_moved tells which). */
static inline const struct gcm_key_st *gcm_key_placed(const gcm_key *k) {
  const struct gcm_key_st *ks = (const struct gcm_key_st *)gcm_place_current(
      gcm_key_cbytes(k), GCM_KEY_PLACE_ALIGN);
  return ks != NULL && ks->magic == GCM_KEY_MAGIC ? ks : NULL;
}

/* The offset of the internal key of a memcpy copy whose placement byte is
 * not this address's (1 .. 16), or 0 when `k` is at its place or not
 * initialised at all (gcm_place_moved). */
static inline size_t gcm_key_moved(const gcm_key *k) {
  return gcm_place_moved(gcm_key_cbytes(k), GCM_KEY_PLACE_ALIGN);
}

/* The aligned place of the internal stream inside `s`. */
static inline struct gcm_stream_st *gcm_stream_place(gcm_stream *s) {
  return (struct gcm_stream_st *)gcm_place_at(gcm_stream_bytes(s),
                                              GCM_STREAM_PLACE_ALIGN);
}

#endif /* LIBGCM_CRYPTO_GCM_PLACEMENT_H */
