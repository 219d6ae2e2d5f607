/*
 * crypto/aead/aead.c: the native API (include/gcm/gcm.h).
 *
 * Everything a caller can get wrong is checked here, before the mode engine
 * runs: pointers, key/nonce/tag lengths, the GCM length limits (with
 * arithmetic that cannot overflow), and buffer aliasing. Failures record
 * the reason (crypto/error.c) and zero the outputs, so a failed call never
 * leaves ciphertext, a tag or unauthenticated plaintext where the caller
 * might use it.
 */
#include <gcm/gcm.h>

#include "../error.h"
#include "../dispatch/backends.h"
#include "../dispatch/dispatch.h"
#include "../gcm/mode.h"
#include "../gcm/placement.h"
#include "aead_internal.h"

/* The internal structs fit at their aligned offset (1 .. align bytes in,
 * crypto/gcm/placement.h), and the placement byte can hold that offset:
 * the fixed-size gcm_key holds a key on any combination of backends. */
_Static_assert(GCM_KEY_PLACE_ALIGN + GCM_KEY_MAX_BYTES <= sizeof(gcm_key),
               "gcm_key too small for the largest key at an aligned offset");
_Static_assert(_Alignof(struct gcm_key_st) <= GCM_KEY_PLACE_ALIGN,
               "the internal key needs more alignment than it is placed at");
_Static_assert(GCM_STREAM_PLACE_ALIGN + sizeof(struct gcm_stream_st) <=
                   sizeof(gcm_stream),
               "gcm_stream too small for the internal stream at an aligned "
               "offset");
_Static_assert(_Alignof(struct gcm_stream_st) <= GCM_STREAM_PLACE_ALIGN,
               "the internal stream needs more alignment than it is placed "
               "at");
_Static_assert(GCM_KEY_PLACE_ALIGN <= 255 && GCM_STREAM_PLACE_ALIGN <= 255,
               "offsets must fit the placement byte");

/* ---- moved keys ------------------------------------------------------------ */

/* Room for any key at an aligned place: a moved key's loan. */
union key_room {
  struct gcm_key_st h;
  GCM_ALIGNED(16) uint8_t bytes[GCM_KEY_MAX_BYTES];
};

/* The header of a moved key (gcm_key_moved: its struct is intact at the
 * old offset `off`, now misaligned), read as bytes: 1 and *h filled when
 * it is an initialised key, else 0. */
static int moved_header(const gcm_key *k, size_t off, struct gcm_key_st *h) {
  memcpy(h, gcm_key_cbytes(k) + off, sizeof(*h));
  return h->magic == GCM_KEY_MAGIC && h->units >= GCM_KEY_HEADER_BYTES / 16 &&
         16u * h->units <= GCM_KEY_MAX_BYTES;
}

/* Copies the internal key of a gcm_key that was memcpy'd to an address of
 * another alignment to the aligned `tmp`: as many bytes as its header says
 * the key takes. Returns the copy, or NULL when `k` holds no initialised
 * key there. The caller wipes tmp after use. A misaligned struct is only
 * ever read as bytes. */
static const struct gcm_key_st *key_lend(const gcm_key *k,
                                         union key_room *tmp) {
  size_t off = gcm_key_moved(k);
  struct gcm_key_st h;
  if (off == 0 || !moved_header(k, off, &h)) return NULL;
  memcpy(tmp->bytes, gcm_key_cbytes(k) + off, 16u * h.units);
  return &tmp->h;
}

/* ---- keys ---------------------------------------------------------------- */

/* The backends a key gets for the names given (NULL: the default), and
 * the memory it takes, placement slack included. */
struct key_choice {
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  const struct fused_impl *fused;
  size_t bytes;
};

/* Fills *c, or returns 0 with the reason recorded for `api`. */
static int key_choose(const char *aes_backend, const char *ghash_backend,
                      const char *fused_backend, struct key_choice *c,
                      const char *api) {
  struct dispatch_failure why;
  if (!gcmi_dispatch_choose(aes_backend, ghash_backend, &c->aes, &c->ghash,
                            &why) ||
      !gcmi_dispatch_choose_fused(fused_backend, c->aes, c->ghash, &c->fused,
                                  &why)) {
    return gcmi_backend_choice_error(&why, api);
  }
  c->bytes = GCM_KEY_PLACE_ALIGN + gcm_mode_key_bytes(c->aes, c->ghash, c->fused);
  return 1;
}

/* The body of the key set-up calls, into `size` bytes at k; `api` is the
 * one the user called, for the messages. */
static int key_init(gcm_key *k, size_t size, const uint8_t *key,
                    size_t key_len, const char *aes_backend,
                    const char *ghash_backend, const char *fused_backend,
                    const char *api) {
  if (!aead_key_init_start(k, size, key, key_len, 1)) return 0;
  struct key_choice c;
  if (!key_choose(aes_backend, ghash_backend, fused_backend, &c, api)) return 0;
  if (size < c.bytes) {
    return gcmi_error_setf(GCM_ERR_OUTPUT_TOO_SMALL,
                           "%s: a key on %s/%s/%s needs %zu bytes "
                           "(gcm_key_size_for), got %zu",
                           api, c.aes->name, c.ghash->name,
                           c.fused != NULL ? c.fused->name : "none", c.bytes,
                           size);
  }
  struct gcm_key_st *ks = gcm_key_place(k);
  gcm_mode_key_init(ks, c.aes, c.ghash, c.fused, key, key_len);
  /* Last: the placement byte is what makes the key initialised. */
  gcm_key_bytes(k)[0] =
      (unsigned char)((const unsigned char *)(void *)ks - gcm_key_bytes(k));
  return 1;
}

int gcm_key_init(gcm_key *k, const uint8_t *key, size_t key_len) {
  return key_init(k, sizeof(*k), key, key_len, NULL, NULL, NULL,
                  "gcm_key_init");
}

int gcm_key_init_with_backends(gcm_key *k, const uint8_t *key, size_t key_len,
                               const char *aes_backend,
                               const char *ghash_backend) {
  return key_init(k, sizeof(*k), key, key_len, aes_backend, ghash_backend,
                  NULL, "gcm_key_init_with_backends");
}

int gcm_key_init_with_fused(gcm_key *k, const uint8_t *key, size_t key_len,
                            const char *aes_backend, const char *ghash_backend,
                            const char *fused_backend) {
  return key_init(k, sizeof(*k), key, key_len, aes_backend, ghash_backend,
                  fused_backend, "gcm_key_init_with_fused");
}

size_t gcm_key_size_for(const char *aes_backend, const char *ghash_backend,
                        const char *fused_backend) {
  struct key_choice c;
  return key_choose(aes_backend, ghash_backend, fused_backend, &c,
                    "gcm_key_size_for")
             ? c.bytes
             : 0;
}

int gcm_key_init_sized(gcm_key *k, size_t size, const uint8_t *key,
                       size_t key_len, const char *aes_backend,
                       const char *ghash_backend, const char *fused_backend) {
  return key_init(k, size, key, key_len, aes_backend, ghash_backend,
                  fused_backend, "gcm_key_init_sized");
}

/* How many bytes from the start of k its key occupies, placement slack
 * included: what cleanup wipes. Just the placement byte when k holds no
 * key (never initialised, failed, or cleaned up). */
static size_t key_extent(const gcm_key *k) {
  const struct gcm_key_st *ks = gcm_key_placed(k);
  if (ks != NULL) {
    return (size_t)((const unsigned char *)(const void *)ks -
                    gcm_key_cbytes(k)) +
           gcm_key_st_bytes(ks);
  }
  size_t off = gcm_key_moved(k);
  struct gcm_key_st h;
  if (off != 0 && moved_header(k, off, &h)) return off + 16u * h.units;
  return 1;
}

void gcm_key_cleanup(gcm_key *k) {
  if (k != NULL) gcmi_secure_wipe(k, key_extent(k));
}

/* What the accessors report of a key, in place or moved. */
struct key_id {
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  const struct fused_impl *fused;
  uint32_t key_len;
};

static int key_identify(const gcm_key *k, struct key_id *id) {
  if (k == NULL) return 0;
  const struct gcm_key_st *ks = aead_valid_key(k);
  if (ks != NULL) {
    id->aes = ks->aes;
    id->ghash = ks->ghash;
    id->fused = ks->fused;
    id->key_len = ks->key_len;
    return 1;
  }
  size_t off = gcm_key_moved(k);
  struct gcm_key_st h;
  if (off == 0 || !moved_header(k, off, &h)) return 0;
  id->aes = h.aes;
  id->ghash = h.ghash;
  id->fused = h.fused;
  id->key_len = h.key_len;
  return 1;
}

const char *gcm_key_aes_backend(const gcm_key *k) {
  struct key_id id;
  return key_identify(k, &id) ? id.aes->name : NULL;
}

const char *gcm_key_ghash_backend(const gcm_key *k) {
  struct key_id id;
  return key_identify(k, &id) ? id.ghash->name : NULL;
}

const char *gcm_key_fused_backend(const gcm_key *k) {
  struct key_id id;
  if (!key_identify(k, &id)) return NULL;
  return id.fused ? id.fused->name : "none";
}

size_t gcm_key_length(const gcm_key *k) {
  struct key_id id;
  return key_identify(k, &id) ? id.key_len : 0;
}

/* ---- shared argument checks ----------------------------------------------- */

/* *out is the key in place; NULL with success for a moved copy (whose
 * callers borrow it with key_lend, which checks it further). */
static int check_key(const gcm_key *k, const struct gcm_key_st **out) {
  if (k == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  *out = aead_valid_key(k);
  if (*out == NULL && gcm_key_moved(k) == 0) {
    return gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  }
  return 1;
}

static int check_nonce(const uint8_t *nonce, size_t nonce_len) {
  if (nonce_len == 0) {
    return gcmi_error_setf(GCM_ERR_NONCE_LENGTH, "nonce must not be empty");
  }
  if (nonce == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  /* Only a 64-bit size_t can exceed the limit; testing it on 32-bit
   * targets would be a comparison that is always false. */
#if SIZE_MAX > 0xffffffffu
  if ((uint64_t)nonce_len > GCM_MAX_NONCE_LEN) {
    return gcmi_error_set(GCM_ERR_NONCE_LENGTH);
  }
#endif
  return 1;
}

static int check_tag_len(size_t tag_len) {
  if (tag_len < 1 || tag_len > GCM_TAG_LEN) {
    return gcmi_error_setf(GCM_ERR_TAG_LENGTH,
                      "tag length must be 1 to 16 bytes, got %zu", tag_len);
  }
  return 1;
}

static int check_lengths(uint64_t data_len, uint64_t aad_len) {
  if (data_len > GCM_MAX_DATA_LEN) {
    return gcmi_error_setf(GCM_ERR_TOO_LONG,
                      "plaintext of %llu bytes exceeds GCM's limit of "
                      "2^36-32 bytes per nonce",
                      (unsigned long long)data_len);
  }
  if (aad_len > GCM_MAX_AAD_LEN) {
    return gcmi_error_setf(GCM_ERR_TOO_LONG,
                      "AAD of %llu bytes exceeds GCM's limit of 2^61-1 bytes",
                      (unsigned long long)aad_len);
  }
  return 1;
}

/* ---- one-shot --------------------------------------------------------- */

/* Every check gcm_seal and gcm_open make, in the order they report them;
 * the aliasing test is left out for AEAD_ALIASING_CHECKED (compat.c, which
 * has applied wider rules, over all its pieces, before it calls in). */
static int one_shot_checks(const gcm_key *k, const struct gcm_key_st **ks,
                           int seal, enum aead_aliasing aliasing,
                           const uint8_t *out, const uint8_t *tag,
                           size_t tag_len,
                           const uint8_t *nonce, size_t nonce_len,
                           const uint8_t *in, size_t in_len,
                           const uint8_t *aad, size_t aad_len) {
  if (!check_key(k, ks)) return 0;
  if (!check_tag_len(tag_len)) return 0;
  if (!check_nonce(nonce, nonce_len)) return 0;
  if (tag == NULL || !buf_ok(out, in_len) || !buf_ok(in, in_len) ||
      !buf_ok(aad, aad_len)) {
    return gcmi_error_set(GCM_ERR_NULL_POINTER);
  }
  if (!check_lengths(in_len, aad_len)) return 0;
  if (aliasing == AEAD_CHECK_ALIASING &&
      !one_shot_disjoint(seal, out, tag, tag_len, nonce, nonce_len, in, in_len,
                         aad, aad_len)) {
    return gcmi_error_set(GCM_ERR_OVERLAP);
  }
  return 1;
}

/* gcm_seal on a moved key, after the checks: on an aligned copy. */
static AEAD_NOINLINE int seal_moved(const gcm_key *k, uint8_t *out,
                                    uint8_t *tag, size_t tag_len,
                                    const uint8_t *nonce, size_t nonce_len,
                                    const uint8_t *in, size_t in_len,
                                    const uint8_t *aad, size_t aad_len) {
  union key_room tmp;
  const struct gcm_key_st *ks = key_lend(k, &tmp);
  if (ks == NULL) {
    wipe_output(out, in_len, GCM_MAX_DATA_LEN);
    wipe_output(tag, tag_len, GCM_TAG_LEN);
    return gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  }
  gcmi_aead_seal_checked(ks, out, tag, tag_len, nonce, nonce_len, in, in_len,
                         aad, aad_len);
  gcmi_secure_wipe(&tmp, sizeof(tmp));
  return 1;
}

/* gcm_open on a moved key, after the checks: on an aligned copy. */
static AEAD_NOINLINE int open_moved(const gcm_key *k, uint8_t *out,
                                    const uint8_t *nonce, size_t nonce_len,
                                    const uint8_t *in, size_t in_len,
                                    const uint8_t *tag, size_t tag_len,
                                    const uint8_t *aad, size_t aad_len) {
  union key_room tmp;
  const struct gcm_key_st *ks = key_lend(k, &tmp);
  if (ks == NULL) {
    wipe_output(out, in_len, GCM_MAX_DATA_LEN);
    return gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  }
  int ok = gcmi_aead_open_checked(ks, out, nonce, nonce_len, in, in_len, tag,
                                  tag_len, aad, aad_len);
  gcmi_secure_wipe(&tmp, sizeof(tmp));
  return ok;
}

int gcmi_aead_seal(enum aead_aliasing aliasing, const gcm_key *k, uint8_t *out,
              uint8_t *tag, size_t tag_len, const uint8_t *nonce,
              size_t nonce_len, const uint8_t *in, size_t in_len,
              const uint8_t *aad, size_t aad_len) {
  const struct gcm_key_st *ks = NULL;
  if (!one_shot_checks(k, &ks, 1, aliasing, out, tag, tag_len, nonce,
                       nonce_len, in, in_len, aad, aad_len)) {
    wipe_output(out, in_len, GCM_MAX_DATA_LEN);
    wipe_output(tag, tag_len, GCM_TAG_LEN);
    return 0;
  }
  if (GCM_UNLIKELY(ks == NULL)) {
    return seal_moved(k, out, tag, tag_len, nonce, nonce_len, in, in_len, aad,
                      aad_len);
  }
  gcmi_aead_seal_checked(ks, out, tag, tag_len, nonce, nonce_len, in, in_len, aad,
                    aad_len);
  return 1;
}

int gcm_seal(const gcm_key *k, uint8_t *out, uint8_t *tag, size_t tag_len,
             const uint8_t *nonce, size_t nonce_len, const uint8_t *in,
             size_t in_len, const uint8_t *aad, size_t aad_len) {
  return gcmi_aead_seal(AEAD_CHECK_ALIASING, k, out, tag, tag_len, nonce,
                   nonce_len, in, in_len, aad, aad_len);
}

void gcmi_aead_seal_checked(const struct gcm_key_st *ks, uint8_t *out, uint8_t *tag,
                       size_t tag_len, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *in, size_t in_len, const uint8_t *aad,
                       size_t aad_len) {
  _Alignas(16) uint8_t full_tag[16];
  if (tag_len == 16) { /* the common case: no copy, nothing to wipe */
    gcm_mode_one_shot(ks, 1, nonce, nonce_len, in, in_len, aad, aad_len, out,
                      tag);
    return;
  }
  gcm_mode_one_shot(ks, 1, nonce, nonce_len, in, in_len, aad, aad_len, out,
                    full_tag);
  memcpy(tag, full_tag, tag_len);
  gcmi_secure_wipe(full_tag, sizeof(full_tag));
}

int gcmi_aead_open(enum aead_aliasing aliasing, const gcm_key *k, uint8_t *out,
              const uint8_t *nonce, size_t nonce_len, const uint8_t *in,
              size_t in_len, const uint8_t *tag, size_t tag_len,
              const uint8_t *aad, size_t aad_len) {
  const struct gcm_key_st *ks = NULL;
  if (!one_shot_checks(k, &ks, 0, aliasing, out, tag, tag_len, nonce,
                       nonce_len, in, in_len, aad, aad_len)) {
    wipe_output(out, in_len, GCM_MAX_DATA_LEN);
    return 0;
  }
  if (GCM_UNLIKELY(ks == NULL)) {
    return open_moved(k, out, nonce, nonce_len, in, in_len, tag, tag_len, aad,
                      aad_len);
  }
  return gcmi_aead_open_checked(ks, out, nonce, nonce_len, in, in_len, tag, tag_len,
                           aad, aad_len);
}

int gcm_open(const gcm_key *k, uint8_t *out, const uint8_t *nonce,
             size_t nonce_len, const uint8_t *in, size_t in_len,
             const uint8_t *tag, size_t tag_len, const uint8_t *aad,
             size_t aad_len) {
  return gcmi_aead_open(AEAD_CHECK_ALIASING, k, out, nonce, nonce_len, in, in_len,
                   tag, tag_len, aad, aad_len);
}

int gcmi_aead_open_checked(const struct gcm_key_st *ks, uint8_t *out,
                      const uint8_t *nonce, size_t nonce_len, const uint8_t *in,
                      size_t in_len, const uint8_t *tag, size_t tag_len,
                      const uint8_t *aad, size_t aad_len) {
  _Alignas(16) uint8_t expected[16];
  gcm_mode_one_shot(ks, 0, nonce, nonce_len, in, in_len, aad, aad_len, out,
                    expected);
  int ok = ct_memeq(expected, tag, tag_len);
  secure_wipe_block(expected);
  if (!ok) {
    if (in_len > 0) gcmi_secure_wipe(out, in_len);
    return gcmi_error_set(GCM_ERR_AUTH);
  }
  return 1;
}

/* ---- streaming ---------------------------------------------------------- */

/* The internal stream of `s` at its aligned place. A stream memcpy'd to an
 * address of another alignment still has its old placement byte; it is
 * moved into place here, which is safe because a stream belongs to one
 * thread. A stream that was never initialised or was cleaned up is left
 * as it is (its magic tells). */
static struct gcm_stream_st *stream_at(gcm_stream *s) {
  unsigned char *b = gcm_stream_bytes(s);
  size_t off = gcm_place_offset(b, GCM_STREAM_PLACE_ALIGN);
  size_t was = b[0];
  if (GCM_UNLIKELY(was != off) && was != 0 && was <= GCM_STREAM_PLACE_ALIGN) {
    memmove(b + off, b + was, sizeof(struct gcm_stream_st));
    b[0] = (unsigned char)off;
  }
  return (struct gcm_stream_st *)(void *)(b + off);
}

/* Ends a stream after a failure: every later call fails with GCM_ERR_STATE
 * until gcm_stream_init. The key stream and partial hash are wiped. */
static void stream_end(struct gcm_stream_st *s) {
  uint32_t magic = s->magic;
  const struct gcm_key_st *k = s->key;
  const gcm_key *moved = s->moved_key;
  gcmi_secure_wipe(s, sizeof(*s));
  s->magic = magic;
  s->key = k;
  s->moved_key = moved;
  s->phase = GCM_PHASE_DONE;
}

/* Returns the internal stream when it may take another call, else records
 * why not. */
static struct gcm_stream_st *live_stream(gcm_stream *s) {
  if (s == NULL) {
    gcmi_error_set(GCM_ERR_NULL_POINTER);
    return NULL;
  }
  struct gcm_stream_st *st = stream_at(s);
  if (st->magic != GCM_STREAM_MAGIC ||
      (st->key == NULL && st->moved_key == NULL)) {
    gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
    return NULL;
  }
  if (st->phase == GCM_PHASE_DONE) {
    gcmi_error_setf(GCM_ERR_STATE,
               "stream already finished or failed; call gcm_stream_init");
    return NULL;
  }
  int key_live = st->key != NULL ? st->key->magic == GCM_KEY_MAGIC
                                 : gcm_key_moved(st->moved_key) != 0;
  if (!key_live) {
    gcmi_error_setf(GCM_ERR_NOT_INITIALIZED,
               "the stream's key was cleaned up during the message");
    stream_end(st);
    return NULL;
  }
  return st;
}

/* The mode calls of a stream started on a moved key (moved_key set, key
 * NULL between calls): each call borrows an aligned copy of that key,
 * points the stream at it for the call, then points it back at nothing
 * and wipes the copy. Out of line, so the 3.5 KB copy takes stack only on
 * this path. A key that key_lend refuses (cleaned up, or re-initialised
 * elsewhere in the meantime) ends the stream. */
enum moved_op { MOVED_START, MOVED_AAD, MOVED_CRYPT, MOVED_TAG };

static AEAD_NOINLINE int stream_moved(struct gcm_stream_st *st,
                                      const gcm_key *k, enum moved_op op,
                                      uint8_t *out, const uint8_t *in,
                                      size_t len, int encrypt) {
  union key_room tmp;
  const struct gcm_key_st *ks = key_lend(k, &tmp);
  if (ks == NULL) {
    if (op != MOVED_START) stream_end(st);
    return gcmi_error_setf(GCM_ERR_NOT_INITIALIZED,
                           "the stream's key was cleaned up");
  }
  st->key = ks;
  switch (op) {
    case MOVED_START: /* in: the nonce, len its length */
      gcm_mode_start(st, ks, encrypt, in, len, UINT64_MAX);
      st->moved_key = k;
      break;
    case MOVED_AAD:
      gcm_mode_aad(st, in, len);
      break;
    case MOVED_CRYPT:
      gcm_mode_crypt(st, out, in, len);
      break;
    case MOVED_TAG: /* out: the 16-byte tag */
      gcm_mode_tag(st, out);
      break;
  }
  st->key = NULL;
  gcmi_secure_wipe(&tmp, sizeof(tmp));
  return 1;
}

int gcm_stream_init(gcm_stream *s, const gcm_key *k, gcm_direction dir,
                    const uint8_t *nonce, size_t nonce_len) {
  if (s == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  /* The whole public object, so the bytes around the internal struct are
   * zero too and stay so, and the placement byte says "not initialised"
   * until the stream has started. */
  gcmi_secure_wipe(s, sizeof(*s));
  struct gcm_stream_st *st = gcm_stream_place(s);
  const struct gcm_key_st *ks = NULL;
  if (!check_key(k, &ks)) return 0;
  if (dir != GCM_ENCRYPT && dir != GCM_DECRYPT) {
    return gcmi_error_setf(GCM_ERR_INVALID_ARGUMENT,
                      "direction must be GCM_ENCRYPT or GCM_DECRYPT");
  }
  if (!check_nonce(nonce, nonce_len)) return 0;
  if (GCM_UNLIKELY(ks == NULL)) {
    if (!stream_moved(st, k, MOVED_START, NULL, nonce, nonce_len,
                      dir == GCM_ENCRYPT)) {
      gcmi_secure_wipe(s, sizeof(*s));
      return 0;
    }
  } else {
    gcm_mode_start(st, ks, dir == GCM_ENCRYPT, nonce, nonce_len, UINT64_MAX);
  }
  gcm_stream_bytes(s)[0] = (unsigned char)((unsigned char *)(void *)st -
                                           gcm_stream_bytes(s));
  return 1;
}

int gcm_stream_aad(gcm_stream *s, const uint8_t *aad, size_t len) {
  struct gcm_stream_st *st = live_stream(s);
  if (st == NULL) return 0;
  if (st->phase != GCM_PHASE_AAD) {
    stream_end(st);
    return gcmi_error_setf(GCM_ERR_STATE, "AAD must come before any data");
  }
  if (!buf_ok(aad, len)) {
    stream_end(st);
    return gcmi_error_set(GCM_ERR_NULL_POINTER);
  }
  if ((uint64_t)len > GCM_MAX_AAD_LEN - st->aad_len) {
    stream_end(st);
    return gcmi_error_setf(GCM_ERR_TOO_LONG,
                      "total AAD would exceed GCM's limit of 2^61-1 bytes");
  }
  if (GCM_UNLIKELY(st->moved_key != NULL)) {
    return stream_moved(st, st->moved_key, MOVED_AAD, NULL, aad, len, 0);
  }
  gcm_mode_aad(st, aad, len);
  return 1;
}

/* gcm_stream_update with each check in turn, the error it sets and the
 * stream ended on failure; the compat layer's entry too, and the path of
 * streams that were moved or run on a moved key. Kept out of line, so
 * gcm_stream_update's common call below needs no stack frame. */
AEAD_NOINLINE
int gcmi_aead_stream_update(enum aead_aliasing aliasing, gcm_stream *s,
                       uint8_t *out, const uint8_t *in, size_t len) {
  struct gcm_stream_st *st = live_stream(s);
  int ok = st != NULL;
  if (ok && (!buf_ok(out, len) || !buf_ok(in, len))) {
    ok = gcmi_error_set(GCM_ERR_NULL_POINTER);
  } else if (ok && (uint64_t)len > GCM_MAX_DATA_LEN - st->data_len) {
    ok = gcmi_error_setf(GCM_ERR_TOO_LONG,
                    "total data would exceed GCM's limit of 2^36-32 bytes "
                    "per nonce");
  } else if (ok && aliasing == AEAD_CHECK_ALIASING &&
             !aead_inplace_or_disjoint(out, in, len)) {
    ok = gcmi_error_set(GCM_ERR_OVERLAP);
  }
  if (ok && GCM_UNLIKELY(st->moved_key != NULL)) {
    ok = stream_moved(st, st->moved_key, MOVED_CRYPT, out, in, len, 0);
    if (ok) return 1;
    st = NULL; /* stream_moved ended it */
  }
  if (!ok) {
    if (st != NULL) stream_end(st);
    wipe_output(out, len, GCM_MAX_DATA_LEN);
    return 0;
  }
  gcm_mode_crypt(st, out, in, len);
  return 1;
}

GCM_HOT_ENTRY int gcm_stream_update(gcm_stream *s, uint8_t *out,
                                    const uint8_t *in, size_t len) {
  /* The common call, every check of gcmi_aead_stream_update in one condition,
   * with the stream at its place. Any failure takes the checked path, which
   * sets the error and ends the stream exactly as before; so do streams
   * memcpy'd to another alignment (moved there) and streams on a moved key
   * (key NULL). */
  const unsigned char *b = (const unsigned char *)(const void *)s;
  /* The place comes from the address alone, so the loads below need not
   * wait for the placement byte, which is compared beside them. */
  size_t off = gcm_place_offset(b, GCM_STREAM_PLACE_ALIGN);
  const struct gcm_stream_st *fast =
      s != NULL && b[0] == off
          ? (const struct gcm_stream_st *)(const void *)(b + off)
          : NULL;
  if (GCM_LIKELY(fast != NULL && fast->magic == GCM_STREAM_MAGIC &&
                 fast->key != NULL && fast->phase != GCM_PHASE_DONE &&
                 fast->key->magic == GCM_KEY_MAGIC &&
                 ((out != NULL && in != NULL) || len == 0) &&
                 (uint64_t)len <= GCM_MAX_DATA_LEN - fast->data_len &&
                 aead_inplace_or_disjoint(out, in, len))) {
    gcm_mode_crypt((struct gcm_stream_st *)(uintptr_t)fast, out, in, len);
    return 1;
  }
  return gcmi_aead_stream_update(AEAD_CHECK_ALIASING, s, out, in, len);
}

/* The stream a finish call may complete: live, in the direction the call
 * is for, with a valid tag argument. Otherwise NULL, with the reason
 * recorded and the stream ended. */
static struct gcm_stream_st *finishing_stream(gcm_stream *s, int encrypt,
                                              const uint8_t *tag,
                                              size_t tag_len) {
  struct gcm_stream_st *st = live_stream(s);
  int ok = st != NULL;
  if (ok && st->encrypt != encrypt) {
    ok = gcmi_error_setf(GCM_ERR_STATE, "%s",
                    encrypt ? "gcm_stream_finish_seal on a decrypting stream"
                            : "gcm_stream_finish_open on an encrypting stream");
  }
  ok = ok && check_tag_len(tag_len);
  if (ok && tag == NULL) ok = gcmi_error_set(GCM_ERR_NULL_POINTER);
  if (!ok) {
    if (st != NULL) stream_end(st);
    return NULL;
  }
  return st;
}

/* gcm_mode_tag, on a borrowed key for a stream on a moved key. */
static int stream_tag(struct gcm_stream_st *st, uint8_t tag[16]) {
  if (GCM_UNLIKELY(st->moved_key != NULL)) {
    return stream_moved(st, st->moved_key, MOVED_TAG, tag, NULL, 0, 0);
  }
  gcm_mode_tag(st, tag);
  return 1;
}

int gcm_stream_finish_seal(gcm_stream *s, uint8_t *tag, size_t tag_len) {
  struct gcm_stream_st *st = finishing_stream(s, 1, tag, tag_len);
  _Alignas(16) uint8_t full_tag[16];
  if (st == NULL || !stream_tag(st, full_tag)) {
    wipe_output(tag, tag_len, GCM_TAG_LEN);
    return 0;
  }
  memcpy(tag, full_tag, tag_len);
  secure_wipe_block(full_tag);
  stream_end(st);
  return 1;
}

int gcm_stream_finish_open(gcm_stream *s, const uint8_t *tag,
                           size_t tag_len) {
  struct gcm_stream_st *st = finishing_stream(s, 0, tag, tag_len);
  if (st == NULL) return 0;
  _Alignas(16) uint8_t expected[16];
  if (!stream_tag(st, expected)) return 0;
  int ok = ct_memeq(expected, tag, tag_len);
  secure_wipe_block(expected);
  stream_end(st);
  return ok ? 1 : gcmi_error_set(GCM_ERR_AUTH);
}

void gcm_stream_cleanup(gcm_stream *s) {
  if (s != NULL) gcmi_secure_wipe(s, sizeof(*s));
}

/* The library's own version (gcm.h), next to the rest of the native API. */
const char *gcm_version(void) { return GCM_VERSION_STRING; }

unsigned long gcm_version_number(void) { return GCM_VERSION_NUMBER; }
