/*
 * libgcm compatibility layer: BoringSSL's <openssl/aead.h>, AES-GCM and
 * AES-GCM-SIV part.
 *
 * Programs written against BoringSSL's EVP_AEAD interface can build against
 * this header (put include/gcm/compat on the include path, or use
 * libgcm-compat.pc / the libgcm::compat CMake target) and link with libgcm.
 * Names, signatures, constants and documented behaviour follow BoringSSL;
 * everything is a thin layer over libgcm's native API in <gcm/gcm.h>, which
 * does the actual encryption. Only the AES-GCM AEADs exist here.
 *
 * Using an AEAD
 * -------------
 * An EVP_AEAD is a fixed description of an algorithm (key size, nonce size,
 * tag size); the EVP_aead_* functions return pointers to static ones. An
 * EVP_AEAD_CTX holds one key for one EVP_AEAD. It is an ordinary struct: it
 * may live on the stack, in static storage or inside another object (or be
 * allocated with EVP_AEAD_CTX_new). Set it up with EVP_AEAD_CTX_init and
 * release it with EVP_AEAD_CTX_cleanup, which wipes the key material.
 *
 * Every message sealed under one key needs its own nonce. Reusing a nonce
 * with AES-GCM reveals the XOR of the two plaintexts and lets an attacker
 * forge messages. The TLS variants below refuse reused nonces, and the
 * randnonce variants draw a random one for every seal; the plain ones
 * cannot know, so the caller must guarantee it.
 *
 * Errors
 * ------
 * Functions that can fail return 1 on success and 0 on failure. BoringSSL
 * also pushes a reason onto its ERR_* queue; libgcm has no such queue.
 * Instead, after a failure gcm_last_error() (and gcm_last_error_message())
 * from <gcm/gcm.h>, called on the same thread, say why: for instance
 * GCM_ERR_AUTH for a wrong tag, GCM_ERR_OUTPUT_TOO_SMALL for a short
 * buffer, GCM_ERR_OVERLAP for overlapping buffers, GCM_ERR_NONCE_ORDER for a
 * TLS nonce that did not increase, GCM_ERR_RANDOM when a randnonce seal
 * could not get random bytes from the operating system.
 *
 * A failed seal or open never leaves partial results: each output buffer the
 * call was handed is filled with zeros (the exact extent is given with each
 * function) and the reported length is set to 0. In particular an open that
 * fails never leaves plaintext behind, whatever the reason.
 *
 * Buffers
 * -------
 * An output may be exactly the same pointer as the input it is computed
 * from (in-place operation). Any other overlap between an output and any
 * input, or between two outputs, is refused with GCM_ERR_OVERLAP.
 * Zero-length buffers may be NULL.
 *
 * Threads
 * -------
 * For EVP_aead_aes_{128,192,256}_gcm and the randnonce AEADs, seal and
 * open only read the context, so any number of threads may seal and open
 * with one shared EVP_AEAD_CTX at once. The TLS variants keep nonce state in the context, as in BoringSSL:
 * their seal functions update it, so two seals on one TLS context must not
 * run at the same time (use a lock, or one context per direction and
 * thread). Their open functions do not touch that state.
 * EVP_AEAD_CTX_init and EVP_AEAD_CTX_cleanup must never run while another
 * thread uses the same context.
 */
#ifndef OPENSSL_HEADER_AEAD_H
#define OPENSSL_HEADER_AEAD_H

#include <openssl/base.h>

/* The native header, found relative to this one (the same layout is used in
 * the source tree and in an installed tree), so that only the compat
 * directory needs to be on the include path. */
#include "../../gcm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Algorithms
 * ------------------------------------------------------------------------- */

/* AES-128, AES-192 and AES-256 in Galois/Counter Mode, with 16-, 24- and
 * 32-byte keys. EVP_AEAD_nonce_length reports 12, the size every protocol
 * should use, but any non-empty nonce is accepted; nonces of other lengths
 * are hashed into the initial counter (SP 800-38D), which makes distinct
 * nonces collide with small probability, so prefer 12 bytes. The tag is
 * 16 bytes unless a shorter one is asked for at init. */
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_128_gcm(void);
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_192_gcm(void);
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_256_gcm(void);

/* AES-128 and AES-256 in Galois/Counter Mode with the nonce made inside:
 * every seal draws a fresh 12-byte nonce from the operating system
 * (getrandom or /dev/urandom; BCryptGenRandom on Windows) and appends it to
 * the GCM tag. For the purposes of this API the tag is therefore 28 bytes
 * (with the default tag length), the 16-byte GCM tag followed by the nonce:
 *
 *   seal output:  ciphertext || GCM tag (16) || nonce (12)
 *
 * and the output is plain AES-GCM under that nonce: EVP_aead_aes_*_gcm
 * opens it when given the last 12 bytes as the nonce and the GCM tag before
 * them as the tag. EVP_AEAD_nonce_length reports 0, and the nonce argument
 * of every seal and open must be empty (nonce_len 0; any other length fails
 * with GCM_ERR_NONCE_LENGTH); opening reads the nonce from the end of the
 * tag. EVP_AEAD_max_overhead and EVP_AEAD_max_tag_len report 28.
 *
 * tag_len at init: EVP_AEAD_DEFAULT_TAG_LENGTH means 28; 13..28 keep a GCM
 * tag of tag_len - 12 bytes (shorter tags make forgeries easier). 1..12 and
 * anything over 28 are refused with GCM_ERR_TAG_LENGTH (BoringSSL takes 12
 * to mean 28; libgcm refuses it rather than write more than was asked).
 *
 * All seal forms work: seal_scatter puts the ciphertext of extra_in first
 * in out_tag, then the 28-byte tag; sealv writes the 28-byte tag to
 * out_tag. All open forms work with the 28-byte tag where the plain AEADs
 * take the 16-byte one (tag_len bytes in both cases when a shorter tag was
 * chosen at init): at the end of `in` (open), at `in_tag` (open_gather,
 * openv_detached, which need in_tag_len == the context's tag length), or at
 * the end of the pieces (openv). A changed nonce byte fails like a changed
 * tag byte, with GCM_ERR_AUTH.
 *
 * If the OS random source fails, the seal fails with GCM_ERR_RANDOM and its
 * outputs are zeroed as for any other failure; nothing is ever sealed under
 * a nonce that is not fresh. Seals never allocate.
 *
 * Limit: random 96-bit nonces collide with probability about n^2 / 2^97
 * after n seals, so, as BoringSSL states, one key must not be used for more
 * than 2^32 seals. Rekey before that. BoringSSL offers these AEADs for FIPS
 * 140 purposes (a module-generated IV); elsewhere the plain AEADs with a
 * counter nonce give more control over nonce storage. */
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_128_gcm_randnonce(void);
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_256_gcm_randnonce(void);

/* AES-GCM-SIV (RFC 8452) with 128- and 256-bit keys: the
 * nonce-misuse-resistant AEAD (gcm_siv_seal in <gcm/gcm.h> describes it).
 * Nonces are 12 bytes and tags 16, as in BoringSSL: tag_len at init must
 * be EVP_AEAD_DEFAULT_TAG_LENGTH or 16 (else GCM_ERR_TAG_LENGTH), and a
 * nonce of any other length fails the seal or open with
 * GCM_ERR_NONCE_LENGTH. At most 2^36 bytes of plaintext and 2^36 bytes of
 * additional data per message (GCM_ERR_TOO_LONG; BoringSSL allows more
 * additional data than RFC 8452 does, libgcm keeps to the RFC).
 *
 * Every seal and open form works, with messages and additional data in any
 * number of pieces, except that EVP_AEAD_CTX_seal_scatter refuses a
 * non-empty extra_in (GCM_ERR_INVALID_ARGUMENT), as BoringSSL does. A
 * failed open leaves zeros in every output: AES-GCM-SIV decrypts before it
 * can check the tag, and nothing of that plaintext is kept. */
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_128_gcm_siv(void);
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_256_gcm_siv(void);

/* Returns 1 when AES-GCM runs on dedicated hardware instructions and is
 * constant-time here, 0 otherwise; it never fails. A TLS stack uses it to
 * choose between AES-GCM and ChaCha20-Poly1305: where it returns 0, a
 * software ChaCha20-Poly1305 is faster.
 *
 * It reports on the pair of backends a key set up with the defaults gets
 * (gcm_default_backends in <gcm/gcm.h>): the CPU's features after any
 * OPENSSL_ia32cap mask, and LIBGCM_AES / LIBGCM_GHASH when they are set.
 * The result is 1 exactly when both halves of that pair use dedicated
 * instructions: today on x86_64 AES `aesni` with GHASH `clmul` or
 * `vpclmul_avx2` (AES-NI with PCLMULQDQ, or with VPCLMULQDQ), on aarch64
 * AES `armv8` with GHASH `pmull` (the Armv8 AES and PMULL instructions),
 * and on 32-bit ARM AES `armv8_32` with GHASH `pmull32` (the same
 * instructions in AArch32).
 * The other tiers return 0:
 *
 *   - vpaes + ssse3 (SSSE3, no AES-NI / PCLMULQDQ) and the portable
 *     ct + ct64 / ct32: constant-time, but several times slower than
 *     AES-NI and slower than ChaCha20-Poly1305 in software, so a TLS stack
 *     should prefer ChaCha20-Poly1305 there;
 *   - any pair with a variable-time backend (the 4bit GHASH, only ever
 *     chosen by name) or a mixed pair such as aesni + ssse3;
 *   - environment variables naming a backend that does not exist or cannot
 *     run (key set-up with the defaults would fail too).
 *
 * The value is the same for the whole life of the process. */
OPENSSL_EXPORT int EVP_has_aes_hardware(void);

/* AES-GCM for TLS 1.2 records (RFC 5288). The nonce must be 12 bytes: a
 * 4-byte salt followed by an 8-byte big-endian explicit part. Each seal
 * checks the explicit part (the last 8 bytes read as a big-endian number)
 * against the previous seal on the same context: it must be strictly
 * larger. The first seal may use any value, including 0. A value that is
 * not larger than the last one, or that equals 2^64-1, makes the seal fail
 * with GCM_ERR_NONCE_ORDER. The first 4 bytes are not checked. Opening is
 * not restricted. Otherwise these behave like EVP_aead_aes_128_gcm and
 * EVP_aead_aes_256_gcm. */
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_128_gcm_tls12(void);
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_256_gcm_tls12(void);

/* AES-GCM for TLS 1.3 records (RFC 8446, section 5.3), where each nonce is
 * the 64-bit record sequence number XORed into the last 8 bytes of a fixed
 * 12-byte IV. The nonce must be 12 bytes. The first seal on a context is
 * taken to carry sequence number 0, so its last 8 bytes become the mask and
 * any value is accepted. Every later seal must carry a sequence number
 * (last 8 bytes XOR mask, big-endian) larger than the previous one and
 * below 2^64-1, or it fails with GCM_ERR_NONCE_ORDER. The first 4 bytes
 * are not checked. Opening is not restricted. */
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_128_gcm_tls13(void);
OPENSSL_EXPORT const EVP_AEAD *EVP_aead_aes_256_gcm_tls13(void);

/* ---------------------------------------------------------------------------
 * Properties of an algorithm
 * ------------------------------------------------------------------------- */

/* The key size of `aead` in bytes (16, 24 or 32). */
OPENSSL_EXPORT size_t EVP_AEAD_key_length(const EVP_AEAD *aead);

/* The nonce size of `aead` in bytes: 12 for every AEAD here except the
 * randnonce ones, which take no nonce (0). */
OPENSSL_EXPORT size_t EVP_AEAD_nonce_length(const EVP_AEAD *aead);

/* The most bytes sealing can add to a message: 16 for every AEAD here
 * except the randnonce ones (28: tag and nonce). A seal output buffer of
 * in_len + EVP_AEAD_max_overhead(aead) bytes is always large enough. */
OPENSSL_EXPORT size_t EVP_AEAD_max_overhead(const EVP_AEAD *aead);

/* The longest tag `aead` can produce, which is also the largest tag_len
 * EVP_AEAD_CTX_init accepts: 16 for every AEAD here except the randnonce
 * ones (28, the GCM tag and the appended nonce). */
OPENSSL_EXPORT size_t EVP_AEAD_max_tag_len(const EVP_AEAD *aead);

/* Upper bounds over every AEAD BoringSSL defines (not only the ones here),
 * so buffers sized with them in BoringSSL programs stay large enough. */
#define EVP_AEAD_MAX_KEY_LENGTH 80
#define EVP_AEAD_MAX_NONCE_LENGTH 32
#define EVP_AEAD_MAX_OVERHEAD 64

/* Passed as tag_len to EVP_AEAD_CTX_init to ask for the algorithm's full
 * tag (16 bytes for AES-GCM, 28 for the randnonce AEADs). */
#define EVP_AEAD_DEFAULT_TAG_LENGTH 0

/* ---------------------------------------------------------------------------
 * Contexts
 * ------------------------------------------------------------------------- */

/* A key set up for one AEAD. The layout is libgcm's own and differs from
 * BoringSSL's; do not rely on anything but the functions below. Like
 * BoringSSL's, it asks only for the alignment of a pointer and a uint64_t,
 * so it may sit at any such address (malloc, a member of the caller's own
 * struct): the native key is kept as bytes, which libgcm uses at any
 * address (see "Alignment" in <gcm/gcm.h>).
 *
 * Size. The type keeps the size it had in libgcm 1.0 (3,680 bytes on
 * 64-bit targets): it is part of libgcm.so.1's ABI, since a program
 * compiled against 1.0 allocates that much for each context it declares.
 * BoringSSL's is 576 bytes; libgcm's will become about that size, the key
 * inline when it fits and allocated at init otherwise, with the next
 * major version. Since 1.1, libgcm uses only the first bytes of a context:
 * its fields and a key on the default backends, 32 + gcm_key_size_for(NULL,
 * NULL, NULL) bytes (592 on the hardware tiers of x86_64, 528 on aarch64), all
 * inside `key` below; the members after `key` are no longer used (their
 * state is kept inside `key`). EVP_AEAD_CTX_new allocates just those bytes,
 * so a context from it must be used through the functions below only: no
 * struct assignment or memcpy of sizeof(EVP_AEAD_CTX) bytes. */
struct evp_aead_ctx_st {
  const EVP_AEAD *aead; /* NULL when not initialised */
  /* libgcm's nonce state, tag length and native key (gcm_key_init_sized),
   * as bytes. */
  unsigned char key[sizeof(gcm_key)];
  /* Unused since libgcm 1.1 (1.0 kept the TLS AEADs' nonce state and the
   * tag length here); kept for the size and layout of 1.0's ABI. */
  uint64_t tls_next;
  uint64_t tls_mask;
  uint8_t tls_started;
  uint8_t tag_len;
};

/* Puts `ctx` into the empty state: not initialised, and safe to pass to
 * EVP_AEAD_CTX_cleanup. Useful for uniform cleanup paths. Like every
 * function here it writes only the bytes libgcm uses (see the struct), so
 * it is safe on a context from EVP_AEAD_CTX_new too. */
OPENSSL_EXPORT void EVP_AEAD_CTX_zero(EVP_AEAD_CTX *ctx);

/* Sets up `ctx` to use `aead` with the key_len-byte `key`. key_len must
 * equal EVP_AEAD_key_length(aead). tag_len is the length of the tags to
 * produce and expect: EVP_AEAD_DEFAULT_TAG_LENGTH (0) means 16, and 1..16
 * are accepted (for the randnonce AEADs: 0 means 28, and 13..28 are
 * accepted; see there). Short tags make forgeries easier; SP 800-38D allows
 * 12..16 generally, and 4 or 8 only under the limits of its appendix C.
 * `impl` is ignored and should be NULL.
 *
 * `ctx` need not be zeroed beforehand, but it must not hold a key that has
 * not been cleaned up (the old key would not be wiped). Returns 1 on
 * success. On failure returns 0 and leaves `ctx` in the empty state, so
 * EVP_AEAD_CTX_cleanup is harmless but not required; the reason is
 * GCM_ERR_NULL_POINTER, GCM_ERR_KEY_LENGTH, GCM_ERR_TAG_LENGTH or a backend
 * selection error from gcm_key_init (see <gcm/gcm.h>). */
OPENSSL_EXPORT int EVP_AEAD_CTX_init(EVP_AEAD_CTX *ctx, const EVP_AEAD *aead,
                                     const uint8_t *key, size_t key_len,
                                     size_t tag_len, ENGINE *impl);

/* Wipes the key material and nonce state in `ctx` (every byte libgcm
 * wrote) and returns it to the empty state. A zeroed, failed or already
 * cleaned-up context is fine; `ctx` may be NULL. Does not free `ctx`
 * itself. */
OPENSSL_EXPORT void EVP_AEAD_CTX_cleanup(EVP_AEAD_CTX *ctx);

/* Allocates a context, initialises it as EVP_AEAD_CTX_init(ctx, aead, key,
 * key_len, tag_len, NULL) would, and returns it; returns NULL if the
 * allocation or the initialisation fails. The allocation holds only what
 * the context uses: its fields and a key on the default backends (592
 * bytes on the hardware tiers of x86_64, 528 on aarch64), not
 * sizeof(EVP_AEAD_CTX) (see the struct): use it through these functions
 * only. It may be cleaned up and initialised again. Release it with
 * EVP_AEAD_CTX_free. */
OPENSSL_EXPORT EVP_AEAD_CTX *EVP_AEAD_CTX_new(const EVP_AEAD *aead,
                                              const uint8_t *key,
                                              size_t key_len, size_t tag_len);

/* Cleans up and frees a context from EVP_AEAD_CTX_new. NULL is ignored. */
OPENSSL_EXPORT void EVP_AEAD_CTX_free(EVP_AEAD_CTX *ctx);

/* The AEAD `ctx` was initialised with, or NULL if it is not initialised. */
OPENSSL_EXPORT const EVP_AEAD *EVP_AEAD_CTX_aead(const EVP_AEAD_CTX *ctx);

/* ---------------------------------------------------------------------------
 * Sealing and opening whole messages
 * ------------------------------------------------------------------------- */

/* Encrypts the in_len bytes at `in`, authenticates them together with the
 * ad_len bytes at `ad`, and writes the ciphertext followed by the tag to
 * `out`: in_len + tag_len bytes, which must fit in max_out_len (in_len +
 * EVP_AEAD_max_overhead always does). On success sets *out_len to the
 * number of bytes written and returns 1.
 *
 * Aliasing: `out` may equal `in`; otherwise the max_out_len bytes at `out`
 * must not overlap `in`, `ad` or `nonce`.
 *
 * On failure returns 0, sets *out_len to 0 and fills all max_out_len bytes
 * of `out` with zeros. Reasons: GCM_ERR_OUTPUT_TOO_SMALL, GCM_ERR_OVERLAP,
 * GCM_ERR_NONCE_LENGTH (empty nonce, not 12 bytes for a TLS AEAD, or not
 * empty for a randnonce AEAD), GCM_ERR_NONCE_ORDER (TLS AEADs),
 * GCM_ERR_RANDOM (randnonce AEADs: the OS random source failed),
 * GCM_ERR_TOO_LONG (over the GCM limits), GCM_ERR_NOT_INITIALIZED,
 * GCM_ERR_NULL_POINTER. */
OPENSSL_EXPORT int EVP_AEAD_CTX_seal(const EVP_AEAD_CTX *ctx, uint8_t *out,
                                     size_t *out_len, size_t max_out_len,
                                     const uint8_t *nonce, size_t nonce_len,
                                     const uint8_t *in, size_t in_len,
                                     const uint8_t *ad, size_t ad_len);

/* Checks and decrypts a message produced by EVP_AEAD_CTX_seal: `in` holds
 * in_len bytes, the ciphertext followed by the tag_len-byte tag. The tag is
 * checked over the ciphertext and the ad_len bytes at `ad`; only if it is
 * right is the plaintext (in_len - tag_len bytes, which must fit in
 * max_out_len) written to `out`, *out_len set to its length, and 1
 * returned.
 *
 * Aliasing: `out` may equal `in`; otherwise the plaintext's bytes at `out`
 * must not overlap `in`, `ad` or `nonce`.
 *
 * On failure returns 0, sets *out_len to 0 and fills all max_out_len bytes
 * of `out` with zeros. Reasons: GCM_ERR_AUTH (wrong tag, or in_len shorter
 * than the tag), GCM_ERR_OUTPUT_TOO_SMALL, GCM_ERR_OVERLAP,
 * GCM_ERR_NONCE_LENGTH, GCM_ERR_TOO_LONG, GCM_ERR_NOT_INITIALIZED,
 * GCM_ERR_NULL_POINTER. */
OPENSSL_EXPORT int EVP_AEAD_CTX_open(const EVP_AEAD_CTX *ctx, uint8_t *out,
                                     size_t *out_len, size_t max_out_len,
                                     const uint8_t *nonce, size_t nonce_len,
                                     const uint8_t *in, size_t in_len,
                                     const uint8_t *ad, size_t ad_len);

/* ---------------------------------------------------------------------------
 * Scatter/gather: ciphertext and tag in separate buffers
 * ------------------------------------------------------------------------- */

/* Like EVP_AEAD_CTX_seal, but writes the in_len bytes of ciphertext to `out`
 * and the rest to `out_tag`. When extra_in_len > 0, the extra_in_len bytes
 * at `extra_in` are treated as more plaintext following `in`; their
 * ciphertext goes to the start of `out_tag`, followed by the tag. So
 * `out_tag` receives extra_in_len + tag_len bytes (EVP_AEAD_CTX_tag_len
 * computes this), which must fit in max_out_tag_len. On success sets
 * *out_tag_len to that number and returns 1.
 *
 * Aliasing: `out` may equal `in` and `out_tag` may equal `extra_in`; no
 * other overlap is allowed between the outputs (`out`, and the
 * max_out_tag_len bytes at `out_tag`) and the inputs (`in`, `extra_in`,
 * `ad`, `nonce`), or between the two outputs.
 *
 * On failure returns 0, sets *out_tag_len to 0, and fills the in_len bytes
 * at `out` and the max_out_tag_len bytes at `out_tag` with zeros. Reasons
 * as for EVP_AEAD_CTX_seal. */
OPENSSL_EXPORT int EVP_AEAD_CTX_seal_scatter(
    const EVP_AEAD_CTX *ctx, uint8_t *out, uint8_t *out_tag,
    size_t *out_tag_len, size_t max_out_tag_len, const uint8_t *nonce,
    size_t nonce_len, const uint8_t *in, size_t in_len,
    const uint8_t *extra_in, size_t extra_in_len, const uint8_t *ad,
    size_t ad_len);

/* Checks the in_tag_len-byte tag at `in_tag` over the in_len bytes of
 * ciphertext at `in` and the ad_len bytes at `ad`, and only if it is right
 * writes the in_len bytes of plaintext to `out` and returns 1. in_tag_len
 * must equal the context's tag length; any other length fails as a wrong
 * tag would (GCM_ERR_AUTH).
 *
 * Aliasing: `out` may equal `in`; otherwise the in_len bytes at `out` must
 * not overlap `in`, `in_tag`, `ad` or `nonce`.
 *
 * On failure returns 0 and fills the in_len bytes at `out` with zeros.
 * Reasons as for EVP_AEAD_CTX_open. */
OPENSSL_EXPORT int EVP_AEAD_CTX_open_gather(
    const EVP_AEAD_CTX *ctx, uint8_t *out, const uint8_t *nonce,
    size_t nonce_len, const uint8_t *in, size_t in_len, const uint8_t *in_tag,
    size_t in_tag_len, const uint8_t *ad, size_t ad_len);

/* ---------------------------------------------------------------------------
 * Vectored I/O
 * ------------------------------------------------------------------------- */

/* A piece of input with the buffer its output goes to: `len` bytes are read
 * from `in` and `len` bytes written to `out`. `out` and `in` must be equal
 * or must not overlap. */
struct crypto_iovec_st {
  uint8_t *out;
  const uint8_t *in;
  size_t len;
};

/* A piece of input only (used for additional data): `len` bytes at `in`. */
struct crypto_ivec_st {
  const uint8_t *in;
  size_t len;
};

/* Seals a message given as num_iovec pieces: the plaintext is the
 * concatenation of iovec[0].in, iovec[1].in, ..., each piece's ciphertext
 * is written to the same piece's `out`, and the additional data is the
 * concatenation of aadvec[0..num_aadvec-1]. The pieces may be split at any
 * byte; the result is the same as sealing the concatenation in one call.
 * The tag (tag_len bytes, which must fit in max_out_tag_len) goes to
 * `out_tag`; on success *out_tag_len is set to its length and 1 is
 * returned. Any number of pieces is accepted (zero included) and no memory
 * is allocated.
 *
 * Aliasing: each piece's `out` may equal its own `in`. No other overlap is
 * allowed among the outputs (every piece's `out`, and the max_out_tag_len
 * bytes at `out_tag`) or between an output and any input (every piece's
 * `in`, every aadvec, `nonce`). The check costs time quadratic in the
 * number of pieces.
 *
 * On failure returns 0, sets *out_tag_len to 0, fills every piece's `out`
 * (len bytes each) and the max_out_tag_len bytes at `out_tag` with zeros.
 * Reasons as for EVP_AEAD_CTX_seal, plus GCM_ERR_TOO_LONG when the pieces
 * add up to more than SIZE_MAX bytes. */
OPENSSL_EXPORT int EVP_AEAD_CTX_sealv(const EVP_AEAD_CTX *ctx,
                                      const CRYPTO_IOVEC *iovec,
                                      size_t num_iovec, uint8_t *out_tag,
                                      size_t *out_tag_len,
                                      size_t max_out_tag_len,
                                      const uint8_t *nonce, size_t nonce_len,
                                      const CRYPTO_IVEC *aadvec,
                                      size_t num_aadvec);

/* Opens a message whose ciphertext and tag are given together as num_iovec
 * pieces, split anywhere: the concatenation of the pieces' `in` is the
 * ciphertext followed by the tag_len-byte tag, as EVP_AEAD_CTX_seal writes
 * it. The tag is checked over the ciphertext and the concatenated aadvecs.
 * On success the plaintext is in the pieces' `out` buffers, at the same
 * positions as the ciphertext it came from, *out_total_bytes is set to its
 * length (the total minus tag_len) and 1 is returned. The output bytes at
 * the positions of the tag are left untouched.
 *
 * No plaintext is released before the tag is known to be right: the
 * pieces are decrypted into their `out` buffers, and if the tag turns out
 * wrong, every `out` buffer is zeroed before returning.
 *
 * Aliasing as for EVP_AEAD_CTX_sealv (there is no out_tag).
 *
 * On failure returns 0, sets *out_total_bytes to 0 and fills every piece's
 * `out` (len bytes each) with zeros. Reasons as for EVP_AEAD_CTX_open;
 * a total shorter than the tag is GCM_ERR_AUTH. */
OPENSSL_EXPORT int EVP_AEAD_CTX_openv(const EVP_AEAD_CTX *ctx,
                                      const CRYPTO_IOVEC *iovec,
                                      size_t num_iovec,
                                      size_t *out_total_bytes,
                                      const uint8_t *nonce, size_t nonce_len,
                                      const CRYPTO_IVEC *aadvec,
                                      size_t num_aadvec);

/* Like EVP_AEAD_CTX_openv, but the pieces hold only ciphertext (every byte
 * of it is decrypted) and the in_tag_len-byte tag is given separately at
 * `in_tag`. in_tag_len must equal the context's tag length, or the call
 * fails with GCM_ERR_AUTH. Returns 1 when the tag is right.
 *
 * Aliasing as for EVP_AEAD_CTX_sealv, with `in_tag` counted as an input.
 *
 * On failure returns 0 and fills every piece's `out` with zeros. */
OPENSSL_EXPORT int EVP_AEAD_CTX_openv_detached(
    const EVP_AEAD_CTX *ctx, const CRYPTO_IOVEC *iovec, size_t num_iovec,
    const uint8_t *nonce, size_t nonce_len, const uint8_t *in_tag,
    size_t in_tag_len, const CRYPTO_IVEC *aadvec, size_t num_aadvec);

/* ---------------------------------------------------------------------------
 * Less common functions
 * ------------------------------------------------------------------------- */

/* The direction a context will be used in. Only BoringSSL's legacy
 * CBC-based TLS AEADs care; every AEAD here works in both directions. */
enum evp_aead_direction_t {
  evp_aead_open,
  evp_aead_seal
};

/* The same as EVP_AEAD_CTX_init(ctx, aead, key, key_len, tag_len, NULL);
 * `dir` is ignored, because no AEAD here depends on it. A context set up for
 * one direction can therefore be used in the other. */
OPENSSL_EXPORT int EVP_AEAD_CTX_init_with_direction(
    EVP_AEAD_CTX *ctx, const EVP_AEAD *aead, const uint8_t *key,
    size_t key_len, size_t tag_len, enum evp_aead_direction_t dir);

/* Only meaningful for AEADs with an implicit, chained IV (BoringSSL's TLS 1.0
 * CBC ones). AES-GCM has none, so this always returns 0
 * (GCM_ERR_INVALID_ARGUMENT) and leaves *out_iv and *out_len untouched. */
OPENSSL_EXPORT int EVP_AEAD_CTX_get_iv(const EVP_AEAD_CTX *ctx,
                                       const uint8_t **out_iv,
                                       size_t *out_len);

/* Sets *out_tag_len to the number of bytes EVP_AEAD_CTX_seal_scatter will
 * write to out_tag for a message of in_len bytes with extra_in_len extra
 * bytes: extra_in_len plus the context's tag length. Returns 1, or 0 with
 * *out_tag_len set to 0 if that sum overflows a size_t
 * (GCM_ERR_TOO_LONG) or `ctx` is not initialised. */
OPENSSL_EXPORT int EVP_AEAD_CTX_tag_len(const EVP_AEAD_CTX *ctx,
                                        size_t *out_tag_len,
                                        const size_t in_len,
                                        const size_t extra_in_len);

#if defined(__cplusplus)
} /* extern "C" */

#if !defined(BORINGSSL_NO_CXX)
extern "C++" {
namespace bssl {

/* An EVP_AEAD_CTX that is zeroed when constructed and cleaned up when
 * destroyed, for C++ code that keeps contexts on the stack:
 *
 *   bssl::ScopedEVP_AEAD_CTX ctx;
 *   if (!EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), key, 16,
 *                          EVP_AEAD_DEFAULT_TAG_LENGTH, nullptr)) ...
 *
 * Reset() cleans up and zeroes it again so it can be re-initialised. */
class ScopedEVP_AEAD_CTX {
 public:
  ScopedEVP_AEAD_CTX() { EVP_AEAD_CTX_zero(&ctx_); }
  ~ScopedEVP_AEAD_CTX() { EVP_AEAD_CTX_cleanup(&ctx_); }

  ScopedEVP_AEAD_CTX(const ScopedEVP_AEAD_CTX &) = delete;
  ScopedEVP_AEAD_CTX &operator=(const ScopedEVP_AEAD_CTX &) = delete;

  EVP_AEAD_CTX *get() { return &ctx_; }
  const EVP_AEAD_CTX *get() const { return &ctx_; }
  EVP_AEAD_CTX *operator->() { return &ctx_; }
  const EVP_AEAD_CTX *operator->() const { return &ctx_; }

  void Reset() {
    EVP_AEAD_CTX_cleanup(&ctx_);
    EVP_AEAD_CTX_zero(&ctx_);
  }

 private:
  EVP_AEAD_CTX ctx_;
};

namespace internal {
/* Lets bssl::UniquePtr<EVP_AEAD_CTX> release contexts from
 * EVP_AEAD_CTX_new. */
template <>
struct Deleter<EVP_AEAD_CTX> {
  void operator()(EVP_AEAD_CTX *ctx) const { EVP_AEAD_CTX_free(ctx); }
};
}  // namespace internal

}  // namespace bssl
}  /* extern "C++" */
#endif /* !BORINGSSL_NO_CXX */

#endif /* __cplusplus */

#endif /* OPENSSL_HEADER_AEAD_H */
