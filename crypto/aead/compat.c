/*
 * crypto/aead/compat.c: BoringSSL's EVP_AEAD interface (AES-GCM and
 * AES-GCM-SIV) on top of libgcm's native API.
 *
 * Nothing here touches AES or GHASH. Every function validates its arguments
 * the way BoringSSL documents, applies the TLS nonce rules where they apply,
 * and hands the work to gcm_seal / gcm_open (one input buffer, one piece of
 * additional data: the common case, and the fastest) or to the gcm_stream_*
 * functions (anything split into several pieces). Neither path allocates.
 * The aliasing rules are checked once, here, over all of a call's pieces
 * (check_overlap); the native calls are then entered with
 * AEAD_ALIASING_CHECKED (aead_internal.h), which checks everything else but
 * not the aliasing again.
 *
 * The layering follows BoringSSL's own: seal, seal_scatter and sealv all end
 * in seal_core; open, open_gather and openv_detached end in open_core;
 * openv finds the tag at the end of its pieces and then decrypts the rest.
 * The public wrappers only add BoringSSL's "zero every output on failure"
 * promise, each for the exact buffers it documents.
 *
 * The randnonce AEADs differ from plain AES-GCM in one place each: seal_core
 * draws the 12-byte nonce from the OS (crypto/rand) and appends it to the
 * GCM tag, and the opens take it back off the end of the tag they are given
 * (gcm_nonce_and_tag). What the API calls the tag is therefore the GCM tag
 * followed by the nonce, and the context's tag_len counts both.
 *
 * The AES-GCM-SIV AEADs (EVP_aead_aes_{128,256}_gcm_siv) keep a
 * gcm_siv_key in the context's key bytes and differ in three places:
 * init takes only 16-byte tags, seal_core and decrypt_pieces hand the
 * message (in however many pieces) to gcmi_aead_siv_sealv / openv
 * (crypto/aead/aead_siv.c), and seal_scatter refuses extra_in, all as
 * BoringSSL does.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/aead.h>

#include "../dispatch/dispatch.h"
#include "../error.h"
#include "../internal.h"
#include "../rand/os_random.h"
#include "aead_internal.h"

/* ---------------------------------------------------------------------------
 * Algorithm descriptors
 * ------------------------------------------------------------------------- */

/* How a context checks the nonces it seals with. */
enum nonce_rule {
  NONCE_ANY,   /* plain AES-GCM: any non-empty nonce, no state */
  NONCE_TLS12, /* explicit part strictly increasing */
  NONCE_TLS13, /* sequence number (nonce XOR first nonce) strictly increasing */
  NONCE_RANDOM /* randnonce: no nonce argument; a fresh random one per seal,
                  appended to the tag */
};

struct evp_aead_st {
  uint8_t key_len;
  uint8_t nonce_len;
  uint8_t overhead;
  uint8_t max_tag_len;
  enum nonce_rule rule;
  /* 1 for AES-GCM-SIV (RFC 8452): the context holds a gcm_siv_key, and
   * every seal and open goes to crypto/aead/aead_siv.c. */
  uint8_t siv;
};

/* The TLS nonce: 4 fixed bytes, then the 8 bytes the rules look at. */
#define TLS_NONCE_LEN 12
#define TLS_COUNTER_OFFSET 4

/* randnonce: the nonce each seal draws, and the tag as the API counts it
 * (the full GCM tag followed by that nonce). */
#define RANDOM_NONCE_LEN 12
#define RANDNONCE_TAG_LEN (GCM_TAG_LEN + RANDOM_NONCE_LEN)

static const struct evp_aead_st aead_aes_128_gcm = {16, 12, 16, 16,
                                                     NONCE_ANY, 0};
static const struct evp_aead_st aead_aes_192_gcm = {24, 12, 16, 16,
                                                     NONCE_ANY, 0};
static const struct evp_aead_st aead_aes_256_gcm = {32, 12, 16, 16,
                                                     NONCE_ANY, 0};
static const struct evp_aead_st aead_aes_128_gcm_tls12 = {16, 12, 16, 16,
                                                          NONCE_TLS12, 0};
static const struct evp_aead_st aead_aes_256_gcm_tls12 = {32, 12, 16, 16,
                                                          NONCE_TLS12, 0};
static const struct evp_aead_st aead_aes_128_gcm_tls13 = {16, 12, 16, 16,
                                                          NONCE_TLS13, 0};
static const struct evp_aead_st aead_aes_256_gcm_tls13 = {32, 12, 16, 16,
                                                          NONCE_TLS13, 0};
/* As in BoringSSL: nonce length 0 (the caller passes none), and both the
 * overhead and the largest tag are the GCM tag plus the appended nonce. */
static const struct evp_aead_st aead_aes_128_gcm_randnonce = {
    16, 0, RANDNONCE_TAG_LEN, RANDNONCE_TAG_LEN, NONCE_RANDOM, 0};
static const struct evp_aead_st aead_aes_256_gcm_randnonce = {
    32, 0, RANDNONCE_TAG_LEN, RANDNONCE_TAG_LEN, NONCE_RANDOM, 0};

/* As in BoringSSL: a 12-byte nonce and a 16-byte tag, nothing else. */
static const struct evp_aead_st aead_aes_128_gcm_siv = {16, 12, 16, 16,
                                                        NONCE_ANY, 1};
static const struct evp_aead_st aead_aes_256_gcm_siv = {32, 12, 16, 16,
                                                        NONCE_ANY, 1};

const EVP_AEAD *EVP_aead_aes_128_gcm(void) { return &aead_aes_128_gcm; }
const EVP_AEAD *EVP_aead_aes_192_gcm(void) { return &aead_aes_192_gcm; }
const EVP_AEAD *EVP_aead_aes_256_gcm(void) { return &aead_aes_256_gcm; }
const EVP_AEAD *EVP_aead_aes_128_gcm_tls12(void) {
  return &aead_aes_128_gcm_tls12;
}
const EVP_AEAD *EVP_aead_aes_256_gcm_tls12(void) {
  return &aead_aes_256_gcm_tls12;
}
const EVP_AEAD *EVP_aead_aes_128_gcm_tls13(void) {
  return &aead_aes_128_gcm_tls13;
}
const EVP_AEAD *EVP_aead_aes_256_gcm_tls13(void) {
  return &aead_aes_256_gcm_tls13;
}
const EVP_AEAD *EVP_aead_aes_128_gcm_randnonce(void) {
  return &aead_aes_128_gcm_randnonce;
}
const EVP_AEAD *EVP_aead_aes_256_gcm_randnonce(void) {
  return &aead_aes_256_gcm_randnonce;
}
const EVP_AEAD *EVP_aead_aes_128_gcm_siv(void) {
  return &aead_aes_128_gcm_siv;
}
const EVP_AEAD *EVP_aead_aes_256_gcm_siv(void) {
  return &aead_aes_256_gcm_siv;
}

/* 1 when the default pair runs on dedicated AES and carry-less-multiply
 * instructions, as opposed to vector permutes (vpaes, ssse3), NEON's 8-bit
 * multiplies (neon) or plain integer code (ct, ct64, ct32). Each
 * descriptor says which it is (aes.h's hardware_rounds, ghash.h's
 * hardware_multiply), so a new backend needs no line here. */
int EVP_has_aes_hardware(void) {
  const char *aes, *ghash;
  /* The pair a key set up with the defaults would get: the CPU after
   * OPENSSL_ia32cap, and LIBGCM_AES / LIBGCM_GHASH if they are set. */
  if (!gcm_default_backends(&aes, &ghash)) return 0;
  const struct aes_impl *a = gcmi_dispatch_find_aes(aes);
  const struct ghash_impl *g = gcmi_dispatch_find_ghash(ghash);
  return a != NULL && a->hardware_rounds && g != NULL && g->hardware_multiply;
}

size_t EVP_AEAD_key_length(const EVP_AEAD *aead) { return aead->key_len; }
size_t EVP_AEAD_nonce_length(const EVP_AEAD *aead) { return aead->nonce_len; }
size_t EVP_AEAD_max_overhead(const EVP_AEAD *aead) { return aead->overhead; }
size_t EVP_AEAD_max_tag_len(const EVP_AEAD *aead) { return aead->max_tag_len; }

/* ---------------------------------------------------------------------------
 * Contexts
 * ------------------------------------------------------------------------- */

/* Buffers sized with EVP_AEAD_MAX_OVERHEAD must hold the longest tag. */
_Static_assert(RANDNONCE_TAG_LEN <= EVP_AEAD_MAX_OVERHEAD,
               "EVP_AEAD_MAX_OVERHEAD too small for a randnonce tag");
/* What a context holds, and where. The header declares 1.0's layout (its
 * size is part of libgcm.so.1's ABI), but libgcm uses only the bytes a
 * key on the default backends needs, from the start:
 *
 *   [0, 8)                       `aead` (the declared member; NULL when
 *                                not initialised)
 *   [8, 32)                      struct aead_ctx_state
 *   [32, 32 + gcm_key_size_for)  the native key (gcm_key_init_sized;
 *                                for the AES-GCM-SIV AEADs an AES-GCM-SIV
 *                                key, which takes fewer: ctx_key_room)
 *
 * (a key on the hardware backends, or on any that exist, ends inside the
 * declared `key` bytes; 1.0's fields after them, tls_next and the rest,
 * are no longer read or written as such). So a context from
 * EVP_AEAD_CTX_new is only CTX_KEY_OFFSET + gcm_key_size_for(NULL, NULL,
 * NULL) bytes (592 on x86_64's hardware tiers), and every function here stays
 * inside those bytes, whoever allocated the context: EVP_AEAD_CTX_init
 * always keys the default backends, whose size is fixed for the process. */
struct aead_ctx_state {
  /* Nonce state of the TLS AEADs. tls_next is the smallest counter
   * (TLS 1.2) or sequence number (TLS 1.3) the next seal may use;
   * tls_mask is the TLS 1.3 mask; tls_started says whether a TLS 1.3 seal
   * has happened yet, i.e. whether tls_mask is known. */
  uint64_t tls_next;
  uint64_t tls_mask;
  uint8_t tls_started;
  /* The tag length chosen at init (1..16; 13..28 for randnonce, counting
   * the appended nonce); 0 when not initialised. */
  uint8_t tag_len;
};

/* At 8: aligned for its uint64_t fields wherever the context is aligned
 * for the declared type (which asks for a pointer's and a uint64_t's). */
#define CTX_STATE_OFFSET 8
#define CTX_KEY_OFFSET 32

_Static_assert(offsetof(EVP_AEAD_CTX, key) <= CTX_STATE_OFFSET &&
                   CTX_STATE_OFFSET + sizeof(struct aead_ctx_state) <=
                       CTX_KEY_OFFSET,
               "the state fits between aead and the key");
_Static_assert(CTX_KEY_OFFSET + GCM_KEY_PLACE_ALIGN + GCM_KEY_MAX_BYTES <=
                   sizeof(EVP_AEAD_CTX),
               "a key on any backends fits in a declared context");
/* tag_len is a uint8_t. */
_Static_assert(RANDNONCE_TAG_LEN <= 255, "tag length must fit in a byte");

static struct aead_ctx_state *ctx_state(const EVP_AEAD_CTX *ctx) {
  return (struct aead_ctx_state *)(uintptr_t)((const unsigned char *)ctx +
                                              CTX_STATE_OFFSET);
}

static size_t ctx_tag_len(const EVP_AEAD_CTX *ctx) {
  return ctx_state(ctx)->tag_len;
}

/* The native key inside a context: bytes at whatever address the context
 * is (libgcm places a key anywhere, <gcm/gcm.h>). */
static gcm_key *ctx_key(EVP_AEAD_CTX *ctx) {
  return (gcm_key *)(void *)((unsigned char *)ctx + CTX_KEY_OFFSET);
}
static const gcm_key *ctx_ckey(const EVP_AEAD_CTX *ctx) {
  return (const gcm_key *)(const void *)((const unsigned char *)ctx +
                                         CTX_KEY_OFFSET);
}
/* The same bytes holding an AES-GCM-SIV key, for the AES-GCM-SIV AEADs
 * (gcm_siv_key_init_sized: only the bytes the key takes, not a whole
 * gcm_siv_key). */
_Static_assert(CTX_KEY_OFFSET + GCM_KEY_PLACE_ALIGN + GCM_SIV_KEY_MAX_BYTES <=
                   sizeof(EVP_AEAD_CTX),
               "an AES-GCM-SIV key on any backends fits in a declared "
               "context");
static gcm_siv_key *ctx_siv_key(EVP_AEAD_CTX *ctx) {
  return (gcm_siv_key *)(void *)((unsigned char *)ctx + CTX_KEY_OFFSET);
}
static const gcm_siv_key *ctx_siv_ckey(const EVP_AEAD_CTX *ctx) {
  return (const gcm_siv_key *)(const void *)((const unsigned char *)ctx +
                                             CTX_KEY_OFFSET);
}

/* The bytes every context keeps for its key, from CTX_KEY_OFFSET: enough
 * for a key on the default backends of either mode (AES-GCM's is the
 * larger, holding a GHASH key beside the same AES schedule), so one
 * context may be initialised with any AEAD, again and again. Fixed for
 * the process; 0 with the reason recorded when the backends cannot be
 * chosen. */
static size_t ctx_key_room(void) {
  const size_t gcm = gcm_key_size_for(NULL, NULL, NULL);
  const size_t siv = gcm_siv_key_size_for(NULL, NULL, NULL);
  if (gcm == 0 || siv == 0) return 0;
  return gcm > siv ? gcm : siv;
}

/* Resets everything but the key bytes to the empty state. */
static void ctx_clear_fields(EVP_AEAD_CTX *ctx) {
  ctx->aead = NULL;
  memset(ctx_state(ctx), 0, sizeof(struct aead_ctx_state));
}

/* The key's placement byte zero too: no key (gcm_key_cleanup wipes no
 * more than that byte then). */
void EVP_AEAD_CTX_zero(EVP_AEAD_CTX *ctx) {
  memset(ctx, 0, CTX_KEY_OFFSET + 1);
}

int EVP_AEAD_CTX_init(EVP_AEAD_CTX *ctx, const EVP_AEAD *aead,
                      const uint8_t *key, size_t key_len, size_t tag_len,
                      ENGINE *impl) {
  (void)impl;
  if (ctx == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  ctx_clear_fields(ctx);
  if (aead == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  if (key_len != aead->key_len) {
    return gcmi_error_setf(GCM_ERR_KEY_LENGTH,
                      "this AEAD takes a %u-byte key, got %zu bytes",
                      (unsigned)aead->key_len, key_len);
  }
  if (tag_len == EVP_AEAD_DEFAULT_TAG_LENGTH) tag_len = aead->max_tag_len;
  /* AES-GCM-SIV's tag is also its initial counter: 16 bytes, as BoringSSL
   * insists. */
  if (aead->siv && tag_len != GCM_SIV_TAG_LEN) {
    return gcmi_error_setf(GCM_ERR_TAG_LENGTH,
                           "AES-GCM-SIV tags are 16 bytes, got %zu", tag_len);
  }
  if (tag_len > aead->max_tag_len) {
    return gcmi_error_setf(GCM_ERR_TAG_LENGTH,
                      "tag length %zu is over the maximum of %u", tag_len,
                      (unsigned)aead->max_tag_len);
  }
  /* A randnonce tag is a GCM tag of 1..16 bytes and then the nonce. (For 12,
   * a GCM tag of nothing, BoringSSL happens to fall back to the default of
   * 28; refusing it is safer than silently writing more than was asked.) */
  if (aead->rule == NONCE_RANDOM && tag_len <= RANDOM_NONCE_LEN) {
    return gcmi_error_setf(GCM_ERR_TAG_LENGTH,
                      "a randnonce tag is a 1..16-byte GCM tag followed by "
                      "the %u-byte nonce, so 13..28 bytes; got %zu",
                      (unsigned)RANDOM_NONCE_LEN, tag_len);
  }
  /* The room every context keeps for its key, the same in every call of
   * the process: what EVP_AEAD_CTX_new allocated. On failure the size
   * query or the sized key init records the reason (the latter leaving the
   * key zeroed). */
  const size_t size = ctx_key_room();
  if (size == 0) return 0;
  if (aead->siv ? !gcm_siv_key_init_sized(ctx_siv_key(ctx), size, key,
                                          key_len, NULL, NULL, NULL)
                : !gcm_key_init_sized(ctx_key(ctx), size, key, key_len, NULL,
                                      NULL, NULL)) {
    return 0;
  }
  ctx->aead = aead;
  ctx_state(ctx)->tag_len = (uint8_t)tag_len;
  return 1;
}

int EVP_AEAD_CTX_init_with_direction(EVP_AEAD_CTX *ctx, const EVP_AEAD *aead,
                                     const uint8_t *key, size_t key_len,
                                     size_t tag_len,
                                     enum evp_aead_direction_t dir) {
  (void)dir; /* AES-GCM works the same both ways */
  return EVP_AEAD_CTX_init(ctx, aead, key, key_len, tag_len, NULL);
}

void EVP_AEAD_CTX_cleanup(EVP_AEAD_CTX *ctx) {
  if (ctx == NULL) return;
  /* The key's bytes (exactly those: a context from EVP_AEAD_CTX_new has
   * no more), then the fields, through wipes the compiler keeps even when
   * cleanup is inlined into EVP_AEAD_CTX_free right before free() (plain
   * stores there are dead and were removed by clang -O3). */
  if (ctx->aead != NULL && ctx->aead->siv) {
    gcm_siv_key_cleanup(ctx_siv_key(ctx));
  } else {
    gcm_key_cleanup(ctx_key(ctx));
  }
  gcmi_secure_wipe(ctx, CTX_KEY_OFFSET);
}

/* Room for the fields and a key on the default backends, no more (see
 * struct aead_ctx_state and ctx_key_room), or NULL with the reason
 * recorded. The context asks for no more alignment than its pointer and
 * 64-bit fields, so plain malloc serves. */
static EVP_AEAD_CTX *ctx_alloc(void) {
  const size_t size = ctx_key_room();
  if (size == 0) return NULL;
  EVP_AEAD_CTX *ctx = (EVP_AEAD_CTX *)malloc(CTX_KEY_OFFSET + size);
  if (ctx == NULL) {
    gcmi_error_setf(GCM_ERR_INVALID_ARGUMENT,
                    "out of memory for an EVP_AEAD_CTX");
  }
  return ctx;
}

static void ctx_release(EVP_AEAD_CTX *ctx) { free(ctx); }

EVP_AEAD_CTX *EVP_AEAD_CTX_new(const EVP_AEAD *aead, const uint8_t *key,
                               size_t key_len, size_t tag_len) {
  EVP_AEAD_CTX *ctx = ctx_alloc();
  if (ctx == NULL) return NULL;
  EVP_AEAD_CTX_zero(ctx);
  if (!EVP_AEAD_CTX_init(ctx, aead, key, key_len, tag_len, NULL)) {
    ctx_release(ctx);
    return NULL;
  }
  return ctx;
}

void EVP_AEAD_CTX_free(EVP_AEAD_CTX *ctx) {
  if (ctx == NULL) return;
  EVP_AEAD_CTX_cleanup(ctx);
  ctx_release(ctx);
}

const EVP_AEAD *EVP_AEAD_CTX_aead(const EVP_AEAD_CTX *ctx) {
  return ctx->aead;
}

int EVP_AEAD_CTX_get_iv(const EVP_AEAD_CTX *ctx, const uint8_t **out_iv,
                        size_t *out_len) {
  (void)ctx;
  (void)out_iv;
  (void)out_len;
  return gcmi_error_setf(GCM_ERR_INVALID_ARGUMENT,
                    "AES-GCM AEADs have no implicit IV to return");
}

int EVP_AEAD_CTX_tag_len(const EVP_AEAD_CTX *ctx, size_t *out_tag_len,
                         const size_t in_len, const size_t extra_in_len) {
  (void)in_len; /* GCM's tag does not depend on the message length */
  if (out_tag_len == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  *out_tag_len = 0;
  if (ctx == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  if (ctx->aead == NULL) return gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  if (extra_in_len > SIZE_MAX - ctx_tag_len(ctx)) {
    return gcmi_error_setf(GCM_ERR_TOO_LONG,
                      "extra_in_len plus the tag overflows a size_t");
  }
  *out_tag_len = extra_in_len + ctx_tag_len(ctx);
  return 1;
}

/* ---------------------------------------------------------------------------
 * Argument checks shared by every seal and open
 * ------------------------------------------------------------------------- */

static void zero_bytes(uint8_t *p, size_t n) {
  if (p != NULL && n != 0) memset(p, 0, n);
}

/* Zeroes every piece's output; used by the failure paths. */
static void zero_pieces(const CRYPTO_IOVEC *iov, size_t n) {
  if (iov == NULL) return;
  for (size_t i = 0; i < n; i++) zero_bytes(iov[i].out, iov[i].len);
}

static int ctx_ready(const EVP_AEAD_CTX *ctx) {
  if (ctx == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  if (ctx->aead == NULL) {
    return gcmi_error_setf(GCM_ERR_NOT_INITIALIZED,
                      "EVP_AEAD_CTX used before EVP_AEAD_CTX_init");
  }
  return 1;
}

/* One piece of either vector type, as the length checks see it: its length
 * and whether a pointer it needs is NULL (an AAD piece has only an input). */
struct piece_view {
  size_t len;
  int has_null;
};

static struct piece_view iovec_piece(const void *v, size_t i) {
  const CRYPTO_IOVEC *p = (const CRYPTO_IOVEC *)v + i;
  struct piece_view r = {p->len, p->in == NULL || p->out == NULL};
  return r;
}

static struct piece_view ivec_piece(const void *v, size_t i) {
  const CRYPTO_IVEC *p = (const CRYPTO_IVEC *)v + i;
  struct piece_view r = {p->len, p->in == NULL};
  return r;
}

/* Sums the lengths of n pieces into *total, failing when the sum does not
 * fit in a size_t and then when a non-empty piece has a NULL pointer.
 * `what` names the vector in the messages ("iovec", "AAD"). */
static int sum_pieces(const void *v, size_t n,
                      struct piece_view (*piece)(const void *, size_t),
                      const char *what, size_t *total) {
  size_t sum = 0;
  for (size_t i = 0; i < n; i++) {
    size_t len = piece(v, i).len;
    if (len > SIZE_MAX - sum) {
      return gcmi_error_setf(GCM_ERR_TOO_LONG, "%s lengths overflow a size_t",
                        what);
    }
    sum += len;
  }
  for (size_t i = 0; i < n; i++) {
    struct piece_view p = piece(v, i);
    if (p.len != 0 && p.has_null) {
      return gcmi_error_setf(GCM_ERR_NULL_POINTER,
                        "%s piece %zu has %zu bytes but a NULL pointer", what,
                        i, p.len);
    }
  }
  *total = sum;
  return 1;
}

/* Every buffer one call reads or writes, for the overlap rules. */
struct call_buffers {
  const CRYPTO_IOVEC *iov; /* outputs, each with its own input */
  size_t n_iov;
  const CRYPTO_IVEC *aad;
  size_t n_aad;
  const uint8_t *nonce;
  size_t nonce_len;
  const uint8_t *in_tag; /* open: the tag, an input */
  size_t in_tag_len;
  uint8_t *out_tag; /* seal: the region the tag may be written to */
  size_t out_tag_len;
};

/* 1 when an output region touches none of the inputs that are never
 * written: the AAD pieces, the nonce and an input tag. */
static int clear_of_fixed_inputs(const uint8_t *out, size_t len,
                                 const struct call_buffers *b) {
  for (size_t i = 0; i < b->n_aad; i++) {
    if (buffers_overlap(out, len, b->aad[i].in, b->aad[i].len)) return 0;
  }
  return !buffers_overlap(out, len, b->nonce, b->nonce_len) &&
         !buffers_overlap(out, len, b->in_tag, b->in_tag_len);
}

/* Applies the rule "an output may equal its own input, and otherwise
 * touches no input and no other output" to every buffer of a call. The
 * pairwise loop over pieces is quadratic in their number, which keeps it
 * free of allocation. */
static int check_overlap(const struct call_buffers *b) {
  for (size_t i = 0; i < b->n_iov; i++) {
    const CRYPTO_IOVEC *p = &b->iov[i];
    if (p->len == 0) continue;
    if (!aead_inplace_or_disjoint(p->out, p->in, p->len)) goto overlap;
    if (!clear_of_fixed_inputs(p->out, p->len, b) ||
        buffers_overlap(p->out, p->len, b->out_tag, b->out_tag_len) ||
        buffers_overlap(p->in, p->len, b->out_tag, b->out_tag_len)) {
      goto overlap;
    }
    for (size_t j = i + 1; j < b->n_iov; j++) {
      const CRYPTO_IOVEC *q = &b->iov[j];
      if (buffers_overlap(p->out, p->len, q->out, q->len) ||
          buffers_overlap(p->out, p->len, q->in, q->len) ||
          buffers_overlap(p->in, p->len, q->out, q->len)) {
        goto overlap;
      }
    }
  }
  if (!clear_of_fixed_inputs(b->out_tag, b->out_tag_len, b)) goto overlap;
  return 1;

overlap:
  return gcmi_error_setf(GCM_ERR_OVERLAP,
                    "an output buffer overlaps an input or another output "
                    "(only out == in is allowed)");
}

/* The checks every vectored call starts with: a usable context, non-NULL
 * arrays, totals that fit in a size_t, and no forbidden overlap. The
 * totals are returned for callers that need them. */
static int check_call(const EVP_AEAD_CTX *ctx, const struct call_buffers *b,
                      size_t *data_total) {
  size_t aad_total;
  if (!ctx_ready(ctx)) return 0;
  if ((b->iov == NULL && b->n_iov != 0) || (b->aad == NULL && b->n_aad != 0) ||
      (b->nonce == NULL && b->nonce_len != 0) ||
      (b->out_tag == NULL && b->out_tag_len != 0) ||
      (b->in_tag == NULL && b->in_tag_len != 0)) {
    return gcmi_error_set(GCM_ERR_NULL_POINTER);
  }
  if (!sum_pieces(b->iov, b->n_iov, iovec_piece, "iovec", data_total) ||
      !sum_pieces(b->aad, b->n_aad, ivec_piece, "AAD", &aad_total)) {
    return 0;
  }
  return check_overlap(b);
}

/* The randnonce AEADs take no nonce from the caller, in either direction. */
static int check_no_nonce(size_t nonce_len) {
  if (nonce_len == 0) return 1;
  return gcmi_error_setf(GCM_ERR_NONCE_LENGTH,
                    "randnonce AEADs make their own nonce: the nonce "
                    "argument must be empty, got %zu bytes",
                    nonce_len);
}

/* The nonce rules, applied before a seal: randnonce wants no nonce, and the
 * TLS AEADs want an increasing one. On success a TLS context has recorded
 * the nonce, so it can never be used again; like BoringSSL, this happens
 * before the seal itself, so a seal that fails afterwards (for instance for
 * a short tag buffer) still uses up its nonce. The context is logically
 * const for the plain and randnonce AEADs only; the TLS ones are documented
 * as stateful and need the caller's lock. */
static int check_seal_nonce(const EVP_AEAD_CTX *cctx, const uint8_t *nonce,
                            size_t nonce_len) {
  EVP_AEAD_CTX *ctx = (EVP_AEAD_CTX *)cctx;
  enum nonce_rule rule = ctx->aead->rule;
  uint64_t value;

  if (rule == NONCE_ANY) return 1;
  if (rule == NONCE_RANDOM) return check_no_nonce(nonce_len);
  if (nonce_len != TLS_NONCE_LEN) {
    return gcmi_error_setf(GCM_ERR_NONCE_LENGTH,
                      "TLS AES-GCM needs a 12-byte nonce, got %zu bytes",
                      nonce_len);
  }
  value = load_be64(nonce + TLS_COUNTER_OFFSET);
  if (rule == NONCE_TLS13) {
    if (!ctx_state(ctx)->tls_started) {
      /* The first record has sequence number 0, so its nonce's last 8
       * bytes are the mask itself. */
      ctx_state(ctx)->tls_mask = value;
      ctx_state(ctx)->tls_started = 1;
      ctx_state(ctx)->tls_next = 1;
      return 1;
    }
    value ^= ctx_state(ctx)->tls_mask;
  }
  /* 2^64-1 is refused because nothing could follow it. */
  if (value == UINT64_MAX || value < ctx_state(ctx)->tls_next) {
    return gcmi_error_setf(GCM_ERR_NONCE_ORDER,
                      "TLS nonce %s %llu was used or passed already "
                      "(next allowed: %llu)",
                      rule == NONCE_TLS13 ? "sequence number" : "counter",
                      (unsigned long long)value,
                      (unsigned long long)ctx_state(ctx)->tls_next);
  }
  ctx_state(ctx)->tls_next = value + 1;
  return 1;
}

/* ---------------------------------------------------------------------------
 * The two cores
 * ------------------------------------------------------------------------- */

/* Seals the pieces and writes the context's tag_len tag bytes to out_tag.
 * The one piece, one AAD case goes straight to the one-shot seal; anything
 * else is streamed piece by piece, which gives the same result for any
 * split. A randnonce seal uses a nonce fresh from the OS and writes it after
 * the GCM tag. Does not zero anything on failure; the public wrappers do. */
static int seal_core(const EVP_AEAD_CTX *ctx, const CRYPTO_IOVEC *iov,
                     size_t n_iov, uint8_t *out_tag, size_t *out_tag_len,
                     size_t max_out_tag_len, const uint8_t *nonce,
                     size_t nonce_len, const CRYPTO_IVEC *aad, size_t n_aad) {
  struct call_buffers b = {iov,  n_iov, aad,     n_aad,          nonce,
                           nonce_len, NULL, 0, out_tag, max_out_tag_len};
  size_t total, gcm_tag_len;
  uint8_t fresh_nonce[RANDOM_NONCE_LEN];
  gcm_stream s;
  int ok;

  if (!check_call(ctx, &b, &total)) return 0;
  if (!check_seal_nonce(ctx, nonce, nonce_len)) return 0;
  if (max_out_tag_len < ctx_tag_len(ctx)) {
    return gcmi_error_setf(GCM_ERR_OUTPUT_TOO_SMALL,
                      "tag buffer holds %zu bytes, the tag needs %u",
                      max_out_tag_len, (unsigned)ctx_tag_len(ctx));
  }
  gcm_tag_len = ctx_tag_len(ctx);
  if (ctx->aead->rule == NONCE_RANDOM) {
    if (!gcmi_os_random_bytes(fresh_nonce, sizeof(fresh_nonce))) return 0;
    nonce = fresh_nonce;
    nonce_len = sizeof(fresh_nonce);
    gcm_tag_len -= RANDOM_NONCE_LEN;
  }

  if (ctx->aead->siv) {
    ok = gcmi_aead_siv_sealv(ctx_siv_ckey(ctx), iov, n_iov, out_tag, nonce,
                             nonce_len, aad, n_aad);
  } else if (n_iov <= 1 && n_aad <= 1) {
    ok = gcmi_aead_seal(AEAD_ALIASING_CHECKED, ctx_ckey(ctx),
                   n_iov ? iov[0].out : NULL, out_tag, gcm_tag_len, nonce,
                   nonce_len, n_iov ? iov[0].in : NULL, n_iov ? iov[0].len : 0,
                   n_aad ? aad[0].in : NULL, n_aad ? aad[0].len : 0);
  } else {
    memset(&s, 0, sizeof(s));
    ok = gcm_stream_init(&s, ctx_ckey(ctx), GCM_ENCRYPT, nonce, nonce_len);
    for (size_t i = 0; ok && i < n_aad; i++) {
      ok = gcm_stream_aad(&s, aad[i].in, aad[i].len);
    }
    for (size_t i = 0; ok && i < n_iov; i++) {
      ok = gcmi_aead_stream_update(AEAD_ALIASING_CHECKED, &s, iov[i].out, iov[i].in,
                              iov[i].len);
    }
    if (ok) ok = gcm_stream_finish_seal(&s, out_tag, gcm_tag_len);
    gcm_stream_cleanup(&s);
  }
  if (ok && ctx->aead->rule == NONCE_RANDOM) {
    memcpy(out_tag + gcm_tag_len, fresh_nonce, RANDOM_NONCE_LEN);
  }
  if (ok) *out_tag_len = ctx_tag_len(ctx);
  return ok;
}

/* Where an open finds the GCM nonce and tag, given the caller's nonce and
 * the tag_len bytes at `tag` that the API calls the tag. For the plain
 * and TLS AEADs both are the caller's. For randnonce the caller's nonce must
 * be empty and the API tag is the GCM tag followed by the nonce, so an
 * altered nonce changes the J0 the tag is checked under and fails as a
 * wrong tag would. */
static int gcm_nonce_and_tag(const EVP_AEAD_CTX *ctx, const uint8_t **nonce,
                             size_t *nonce_len, const uint8_t *tag,
                             size_t *gcm_tag_len) {
  *gcm_tag_len = ctx_tag_len(ctx);
  if (ctx->aead->rule != NONCE_RANDOM) return 1;
  if (!check_no_nonce(*nonce_len)) return 0;
  *gcm_tag_len = (size_t)ctx_tag_len(ctx) - RANDOM_NONCE_LEN;
  *nonce = tag + *gcm_tag_len;
  *nonce_len = RANDOM_NONCE_LEN;
  return 1;
}

/* Decrypts the first data_len bytes of the pieces (the rest, if any, is the
 * tag openv found at the end) and checks the tag_len-byte GCM `tag`, which
 * must already be outside every output. The one-piece, one-AAD case uses
 * the one-shot open, which writes nothing unless the tag is right. Otherwise
 * the pieces are streamed into their outputs and the caller zeroes them all
 * when this fails. */
static int decrypt_pieces(const EVP_AEAD_CTX *ctx, const CRYPTO_IOVEC *iov,
                          size_t n_iov, size_t data_len, const uint8_t *nonce,
                          size_t nonce_len, const uint8_t *tag, size_t tag_len,
                          const CRYPTO_IVEC *aad, size_t n_aad) {
  gcm_stream s;
  int ok;

  if (ctx->aead->siv) {
    /* tag_len is the context's, which is 16 for AES-GCM-SIV. */
    return gcmi_aead_siv_openv(ctx_siv_ckey(ctx), iov, n_iov, data_len, nonce,
                               nonce_len, tag, aad, n_aad);
  }
  if (n_aad <= 1 && (data_len == 0 || iov[0].len >= data_len)) {
    return gcmi_aead_open(AEAD_ALIASING_CHECKED, ctx_ckey(ctx),
                     data_len ? iov[0].out : NULL, nonce, nonce_len,
                     data_len ? iov[0].in : NULL, data_len, tag, tag_len,
                     n_aad ? aad[0].in : NULL, n_aad ? aad[0].len : 0);
  }
  memset(&s, 0, sizeof(s));
  ok = gcm_stream_init(&s, ctx_ckey(ctx), GCM_DECRYPT, nonce, nonce_len);
  for (size_t i = 0; ok && i < n_aad; i++) {
    ok = gcm_stream_aad(&s, aad[i].in, aad[i].len);
  }
  size_t left = data_len;
  for (size_t i = 0; ok && i < n_iov && left > 0; i++) {
    size_t take = iov[i].len < left ? iov[i].len : left;
    ok = gcmi_aead_stream_update(AEAD_ALIASING_CHECKED, &s, iov[i].out, iov[i].in,
                            take);
    left -= take;
  }
  if (ok) ok = gcm_stream_finish_open(&s, tag, tag_len);
  gcm_stream_cleanup(&s);
  return ok;
}

/* Opens pieces that hold only ciphertext, with the tag given separately. */
static int open_core(const EVP_AEAD_CTX *ctx, const CRYPTO_IOVEC *iov,
                     size_t n_iov, const uint8_t *nonce, size_t nonce_len,
                     const uint8_t *in_tag, size_t in_tag_len,
                     const CRYPTO_IVEC *aad, size_t n_aad) {
  struct call_buffers b = {iov,   n_iov,      aad,  n_aad, nonce,
                           nonce_len, in_tag, in_tag_len, NULL, 0};
  size_t total, gcm_tag_len;

  if (!check_call(ctx, &b, &total)) return 0;
  if (in_tag_len != ctx_tag_len(ctx)) {
    return gcmi_error_setf(GCM_ERR_AUTH,
                      "tag is %zu bytes, this context expects %u", in_tag_len,
                      (unsigned)ctx_tag_len(ctx));
  }
  if (!gcm_nonce_and_tag(ctx, &nonce, &nonce_len, in_tag, &gcm_tag_len)) {
    return 0;
  }
  return decrypt_pieces(ctx, iov, n_iov, total, nonce, nonce_len, in_tag,
                        gcm_tag_len, aad, n_aad);
}

/* ---------------------------------------------------------------------------
 * Public seal and open functions
 * ------------------------------------------------------------------------- */

int EVP_AEAD_CTX_sealv(const EVP_AEAD_CTX *ctx, const CRYPTO_IOVEC *iovec,
                       size_t num_iovec, uint8_t *out_tag, size_t *out_tag_len,
                       size_t max_out_tag_len, const uint8_t *nonce,
                       size_t nonce_len, const CRYPTO_IVEC *aadvec,
                       size_t num_aadvec) {
  int ok = out_tag_len != NULL ? seal_core(ctx, iovec, num_iovec, out_tag,
                                           out_tag_len, max_out_tag_len, nonce,
                                           nonce_len, aadvec, num_aadvec)
                               : gcmi_error_set(GCM_ERR_NULL_POINTER);
  if (!ok) {
    zero_pieces(iovec, num_iovec);
    zero_bytes(out_tag, max_out_tag_len);
    if (out_tag_len != NULL) *out_tag_len = 0;
  }
  return ok;
}

/* What a fast path checks that depends on the mode: the nonce length, the
 * lengths against the mode's limits, and a key in place. */
static int mode_fast_ok(const EVP_AEAD_CTX *ctx, size_t nonce_len,
                        size_t data_len, size_t ad_len) {
  if (ctx->aead->siv) {
    return nonce_len == GCM_SIV_NONCE_LEN &&
           length_within(data_len, GCM_SIV_MAX_DATA_LEN) &&
           length_within(ad_len, GCM_SIV_MAX_AAD_LEN) &&
           aead_valid_siv_key(ctx_siv_ckey(ctx)) != NULL;
  }
  return nonce_len != 0 && length_within(data_len, GCM_MAX_DATA_LEN) &&
         length_within(ad_len, GCM_MAX_AAD_LEN) &&
         aead_valid_key(ctx_ckey(ctx)) != NULL;
}

/* The common single-buffer seal in one test: everything seal_core and
 * gcm_seal (or gcm_siv_seal) would check (pointers, room, lengths, the
 * key, and the overlap rules for out's whole declared size), so the call
 * can go straight to the mode engine. Anything that fails it takes the
 * ordinary path, which finds and reports the problem. */
static int seal_fast_ok(const EVP_AEAD_CTX *ctx, const uint8_t *out,
                        const size_t *out_len, size_t max_out_len,
                        const uint8_t *nonce, size_t nonce_len,
                        const uint8_t *in, size_t in_len, const uint8_t *ad,
                        size_t ad_len) {
  /* randnonce contexts draw their nonce in seal_core: never here. */
  return ctx != NULL && ctx->aead != NULL &&
         ctx->aead->rule != NONCE_RANDOM && out_len != NULL && out != NULL &&
         nonce != NULL && (in != NULL || in_len == 0) &&
         (ad != NULL || ad_len == 0) && max_out_len >= in_len &&
         max_out_len - in_len >= ctx_tag_len(ctx) &&
         aead_inplace_or_disjoint(out, in, in_len) &&
         !buffers_overlap(out + in_len, max_out_len - in_len, in, in_len) &&
         !buffers_overlap(out, max_out_len, ad, ad_len) &&
         !buffers_overlap(out, max_out_len, nonce, nonce_len) &&
         mode_fast_ok(ctx, nonce_len, in_len, ad_len);
}

/* The same for a single-buffer open (the tag is the last tag_len bytes of
 * in, an input). */
static int open_fast_ok(const EVP_AEAD_CTX *ctx, const uint8_t *out,
                        const size_t *out_len, size_t max_out_len,
                        const uint8_t *nonce, size_t nonce_len,
                        const uint8_t *in, size_t in_len, const uint8_t *ad,
                        size_t ad_len) {
  /* randnonce contexts read their nonce off the tag in open_core. */
  if (ctx == NULL || ctx->aead == NULL || ctx->aead->rule == NONCE_RANDOM ||
      out_len == NULL || out == NULL || in == NULL ||
      in_len < ctx_tag_len(ctx)) {
    return 0;
  }
  const size_t plain = in_len - ctx_tag_len(ctx);
  return nonce != NULL && (ad != NULL || ad_len == 0) &&
         max_out_len >= plain && aead_inplace_or_disjoint(out, in, plain) &&
         !buffers_overlap(out, plain, in + plain, ctx_tag_len(ctx)) &&
         !buffers_overlap(out, plain, ad, ad_len) &&
         !buffers_overlap(out, plain, nonce, nonce_len) &&
         mode_fast_ok(ctx, nonce_len, plain, ad_len);
}

int EVP_AEAD_CTX_seal(const EVP_AEAD_CTX *ctx, uint8_t *out, size_t *out_len,
                      size_t max_out_len, const uint8_t *nonce,
                      size_t nonce_len, const uint8_t *in, size_t in_len,
                      const uint8_t *ad, size_t ad_len) {
  int ok = 0;
  if (GCM_LIKELY(seal_fast_ok(ctx, out, out_len, max_out_len, nonce,
                              nonce_len, in, in_len, ad, ad_len)) &&
      check_seal_nonce(ctx, nonce, nonce_len)) {
    if (ctx->aead->siv) {
      gcm_siv_mode_seal(aead_valid_siv_key(ctx_siv_ckey(ctx)), nonce, in,
                        in_len, ad, ad_len, out, out + in_len);
    } else {
      gcmi_aead_seal_checked(aead_valid_key(ctx_ckey(ctx)), out, out + in_len,
                             ctx_tag_len(ctx), nonce, nonce_len, in, in_len,
                             ad, ad_len);
    }
    *out_len = in_len + ctx_tag_len(ctx);
    return 1;
  }
  if (out_len == NULL || (out == NULL && max_out_len != 0)) {
    gcmi_error_set(GCM_ERR_NULL_POINTER);
  } else if (max_out_len < in_len) {
    gcmi_error_setf(GCM_ERR_OUTPUT_TOO_SMALL,
               "output holds %zu bytes, the ciphertext alone needs %zu",
               max_out_len, in_len);
  } else {
    CRYPTO_IOVEC piece = {out, in, in_len};
    CRYPTO_IVEC aad = {ad, ad_len};
    size_t tag_len = 0;
    ok = seal_core(ctx, &piece, 1, out != NULL ? out + in_len : NULL,
                   &tag_len, max_out_len - in_len, nonce, nonce_len, &aad, 1);
    if (ok) *out_len = in_len + tag_len;
  }
  if (!ok) {
    zero_bytes(out, max_out_len);
    if (out_len != NULL) *out_len = 0;
  }
  return ok;
}

int EVP_AEAD_CTX_seal_scatter(const EVP_AEAD_CTX *ctx, uint8_t *out,
                              uint8_t *out_tag, size_t *out_tag_len,
                              size_t max_out_tag_len, const uint8_t *nonce,
                              size_t nonce_len, const uint8_t *in,
                              size_t in_len, const uint8_t *extra_in,
                              size_t extra_in_len, const uint8_t *ad,
                              size_t ad_len) {
  int ok = 0;
  if (out_tag_len == NULL || (out_tag == NULL && max_out_tag_len != 0)) {
    gcmi_error_set(GCM_ERR_NULL_POINTER);
  } else if (max_out_tag_len < extra_in_len) {
    gcmi_error_setf(GCM_ERR_OUTPUT_TOO_SMALL,
               "tag buffer holds %zu bytes, extra_in alone needs %zu",
               max_out_tag_len, extra_in_len);
  } else if (extra_in_len != 0 && ctx != NULL && ctx->aead != NULL &&
             ctx->aead->siv) {
    /* As in BoringSSL, whose AES-GCM-SIV does not take extra_in. */
    gcmi_error_setf(GCM_ERR_INVALID_ARGUMENT,
               "AES-GCM-SIV takes no extra_in");
  } else {
    /* The extra input is simply a second piece whose ciphertext goes to
     * the front of out_tag; the tag follows it. */
    CRYPTO_IOVEC pieces[2] = {{out, in, in_len},
                              {out_tag, extra_in, extra_in_len}};
    CRYPTO_IVEC aad = {ad, ad_len};
    size_t tag_len = 0;
    ok = seal_core(ctx, pieces, extra_in_len != 0 ? 2 : 1,
                   out_tag != NULL ? out_tag + extra_in_len : NULL, &tag_len,
                   max_out_tag_len - extra_in_len, nonce, nonce_len, &aad, 1);
    if (ok) *out_tag_len = extra_in_len + tag_len;
  }
  if (!ok) {
    zero_bytes(out, in_len);
    zero_bytes(out_tag, max_out_tag_len);
    if (out_tag_len != NULL) *out_tag_len = 0;
  }
  return ok;
}

int EVP_AEAD_CTX_openv_detached(const EVP_AEAD_CTX *ctx,
                                const CRYPTO_IOVEC *iovec, size_t num_iovec,
                                const uint8_t *nonce, size_t nonce_len,
                                const uint8_t *in_tag, size_t in_tag_len,
                                const CRYPTO_IVEC *aadvec, size_t num_aadvec) {
  int ok = open_core(ctx, iovec, num_iovec, nonce, nonce_len, in_tag,
                     in_tag_len, aadvec, num_aadvec);
  if (!ok) zero_pieces(iovec, num_iovec);
  return ok;
}

int EVP_AEAD_CTX_open_gather(const EVP_AEAD_CTX *ctx, uint8_t *out,
                             const uint8_t *nonce, size_t nonce_len,
                             const uint8_t *in, size_t in_len,
                             const uint8_t *in_tag, size_t in_tag_len,
                             const uint8_t *ad, size_t ad_len) {
  CRYPTO_IOVEC piece = {out, in, in_len};
  CRYPTO_IVEC aad = {ad, ad_len};
  int ok = open_core(ctx, &piece, 1, nonce, nonce_len, in_tag, in_tag_len,
                     &aad, 1);
  if (!ok) zero_bytes(out, in_len);
  return ok;
}

int EVP_AEAD_CTX_open(const EVP_AEAD_CTX *ctx, uint8_t *out, size_t *out_len,
                      size_t max_out_len, const uint8_t *nonce,
                      size_t nonce_len, const uint8_t *in, size_t in_len,
                      const uint8_t *ad, size_t ad_len) {
  int ok = 0;
  if (GCM_LIKELY(open_fast_ok(ctx, out, out_len, max_out_len, nonce,
                              nonce_len, in, in_len, ad, ad_len))) {
    const size_t plain = in_len - ctx_tag_len(ctx);
    const int opened =
        ctx->aead->siv
            ? gcmi_aead_siv_open_checked(aead_valid_siv_key(ctx_siv_ckey(ctx)),
                                         out, nonce, in, plain, in + plain,
                                         ad, ad_len)
            : gcmi_aead_open_checked(aead_valid_key(ctx_ckey(ctx)), out, nonce,
                                     nonce_len, in, plain, in + plain,
                                     ctx_tag_len(ctx), ad, ad_len);
    if (opened) {
      *out_len = plain;
      return 1;
    }
    zero_bytes(out, max_out_len);
    *out_len = 0;
    return 0;
  }
  if (out_len == NULL || (out == NULL && max_out_len != 0) ||
      (in == NULL && in_len != 0)) {
    gcmi_error_set(GCM_ERR_NULL_POINTER);
  } else if (ctx_ready(ctx)) {
    if (in_len < ctx_tag_len(ctx)) {
      gcmi_error_setf(GCM_ERR_AUTH,
                 "input of %zu bytes is shorter than the %u-byte tag", in_len,
                 (unsigned)ctx_tag_len(ctx));
    } else if (max_out_len < in_len - ctx_tag_len(ctx)) {
      gcmi_error_setf(GCM_ERR_OUTPUT_TOO_SMALL,
                 "output holds %zu bytes, the plaintext needs %zu",
                 max_out_len, in_len - ctx_tag_len(ctx));
    } else {
      size_t plain_len = in_len - ctx_tag_len(ctx);
      CRYPTO_IOVEC piece = {out, in, plain_len};
      CRYPTO_IVEC aad = {ad, ad_len};
      ok = open_core(ctx, &piece, 1, nonce, nonce_len, in + plain_len,
                     ctx_tag_len(ctx), &aad, 1);
      if (ok) *out_len = plain_len;
    }
  }
  if (!ok) {
    zero_bytes(out, max_out_len);
    if (out_len != NULL) *out_len = 0;
  }
  return ok;
}

/* Copies the last n bytes of the concatenated inputs of the pieces to dst.
 * The caller has checked that the pieces hold at least n bytes. */
static void copy_input_tail(uint8_t *dst, size_t n, const CRYPTO_IOVEC *iov,
                            size_t n_iov) {
  size_t need = n;
  for (size_t i = n_iov; i-- > 0 && need > 0;) {
    size_t take = iov[i].len < need ? iov[i].len : need;
    if (take == 0) continue; /* an empty piece may have in == NULL */
    memcpy(dst + (need - take), iov[i].in + (iov[i].len - take), take);
    need -= take;
  }
}

int EVP_AEAD_CTX_openv(const EVP_AEAD_CTX *ctx, const CRYPTO_IOVEC *iovec,
                       size_t num_iovec, size_t *out_total_bytes,
                       const uint8_t *nonce, size_t nonce_len,
                       const CRYPTO_IVEC *aadvec, size_t num_aadvec) {
  struct call_buffers b = {iovec, num_iovec, aadvec, num_aadvec, nonce,
                           nonce_len, NULL, 0, NULL, 0};
  uint8_t tag[RANDNONCE_TAG_LEN]; /* the longest tag of any AEAD here */
  size_t total = 0, gcm_tag_len = 0;
  int ok = 0;

  if (out_total_bytes == NULL) {
    gcmi_error_set(GCM_ERR_NULL_POINTER);
  } else if (check_call(ctx, &b, &total)) {
    if (total < ctx_tag_len(ctx)) {
      gcmi_error_setf(GCM_ERR_AUTH,
                 "input of %zu bytes is shorter than the %u-byte tag", total,
                 (unsigned)ctx_tag_len(ctx));
    } else {
      /* Take the tag out of the pieces before anything is written, so an
       * in-place piece cannot change it. */
      copy_input_tail(tag, ctx_tag_len(ctx), iovec, num_iovec);
      ok = gcm_nonce_and_tag(ctx, &nonce, &nonce_len, tag, &gcm_tag_len) &&
           decrypt_pieces(ctx, iovec, num_iovec, total - ctx_tag_len(ctx),
                          nonce, nonce_len, tag, gcm_tag_len, aadvec,
                          num_aadvec);
      if (ok) *out_total_bytes = total - ctx_tag_len(ctx);
    }
  }
  if (!ok) {
    zero_pieces(iovec, num_iovec);
    if (out_total_bytes != NULL) *out_total_bytes = 0;
  }
  return ok;
}
