/*
 * libgcm: AES-GCM authenticated encryption (NIST SP 800-38D).
 *
 * This is libgcm's native API. Programs written against BoringSSL's
 * <openssl/aead.h> can instead use the compatibility header installed under
 * include/gcm/compat (see libgcm-compat.pc); it is a thin layer over this one.
 *
 * Conventions
 * -----------
 * - Functions that can fail return 1 on success and 0 on failure. After a
 *   failure, gcm_last_error() on the same thread says why.
 * - All objects are owned by the caller and may live on the stack. No
 *   function here allocates memory. A key can also live in memory of just
 *   the size its backends need (gcm_key_size_for, gcm_key_init_sized;
 *   gcm_siv_key_size_for, gcm_siv_key_init_sized for AES-GCM-SIV).
 * - Buffers: `out` may equal `in` exactly (in-place operation). Any other
 *   overlap between an output and any input is refused with
 *   GCM_ERR_OVERLAP. Zero-length buffers may be NULL.
 * - On failure, every output a call was given (ciphertext, plaintext, tag)
 *   is filled with zeros, for as many bytes as the call would have written.
 *   A failed open never leaves plaintext behind.
 * - Limits (SP 800-38D): at most GCM_MAX_DATA_LEN bytes of plaintext per
 *   nonce, at most GCM_MAX_AAD_LEN bytes of additional data, nonces of 1 to
 *   GCM_MAX_NONCE_LEN bytes. Longer inputs are refused, never truncated.
 *   12-byte nonces take the fast path; every other length is hashed into the
 *   initial counter as the standard describes.
 * - Thread safety: a gcm_key is read-only after gcm_key_init returns, so any
 *   number of threads may seal and open with one key at once. A gcm_stream
 *   belongs to one thread at a time.
 *
 * Environment variables
 * ---------------------
 * Read once per process, on the first call that needs them; they only
 * change the defaults (a backend named in a call always wins):
 *   LIBGCM_AES, LIBGCM_GHASH, LIBGCM_FUSED  name the default backends
 *                     (gcm_key_init); "none" in LIBGCM_FUSED means the
 *                     two-pass path
 *   OPENSSL_ia32cap   x86: hides CPU features, BoringSSL's format
 *   LIBGCM_ARMCAP     aarch64 and 32-bit ARM: hides CPU features
 *   LIBGCM_PROVIDER_STATS  the OpenSSL provider module only: where to
 *                     append its counters at exit ("stderr", or a file
 *                     opened with O_NOFOLLOW and created mode 0600)
 * In a privileged process, all of them are ignored, as if unset: setuid
 * or setgid programs and programs with file capabilities, or anything else
 * the kernel marks AT_SECURE (secure_getenv, getauxval(AT_SECURE),
 * issetugid or the real and effective ids compared, whichever the
 * platform has). On Windows, which has no setuid, they are always read.
 * A variable-time backend (GHASH "4bit") named by LIBGCM_GHASH is refused
 * with GCM_ERR_BACKEND_UNUSABLE unless libgcm was configured with
 * LIBGCM_ALLOW_VARIABLE_TIME_ENV=ON (meant for testing); named in a call
 * (gcm_key_init_with_backends) it is always accepted.
 */
#ifndef LIBGCM_GCM_H
#define LIBGCM_GCM_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#define GCM_ALIGNAS(n) alignas(n)
#else
#define GCM_ALIGNAS(n) _Alignas(n)
#endif

#if defined(_WIN32) && defined(LIBGCM_SHARED_BUILD)
#define GCM_EXPORT __declspec(dllexport)
#elif defined(_WIN32)
/* A program using libgcm.dll calls through the import library's stubs
 * and a static libgcm.a needs no marking, so one header serves both. */
#define GCM_EXPORT
#elif defined(__GNUC__) || defined(__clang__)
#define GCM_EXPORT __attribute__((visibility("default")))
#else
#define GCM_EXPORT
#endif

/* ---------------------------------------------------------------------------
 * Version
 *
 * The version of this header. libgcm follows semantic versioning: a change
 * of GCM_VERSION_MAJOR is the only kind that may break source or binary
 * compatibility (and changes the shared library's SONAME, libgcm.so.1 for
 * 1.x); a new minor version adds API; a patch release changes neither.
 * gcm_version() and gcm_version_number() give the version of the library
 * actually linked, which may be newer than the header a program was built
 * with. These lines are the one source of the version: the build reads
 * them for the shared library's version, pkg-config and the CMake package.
 * ------------------------------------------------------------------------- */

#define GCM_VERSION_MAJOR 1
#define GCM_VERSION_MINOR 0
#define GCM_VERSION_PATCH 0
/* 0xMMmmpp: one byte each for major, minor and patch (1.0.0 is 0x010000),
 * so versions compare as numbers. */
#define GCM_VERSION_NUMBER \
  ((GCM_VERSION_MAJOR << 16) | (GCM_VERSION_MINOR << 8) | GCM_VERSION_PATCH)
#define GCM_VERSION_STRING "1.0.0"

/* ---------------------------------------------------------------------------
 * Limits
 * ------------------------------------------------------------------------- */

/* Key sizes in bytes. */
#define GCM_KEY_LEN_128 16
#define GCM_KEY_LEN_192 24
#define GCM_KEY_LEN_256 32

/* The full tag, and the nonce length that takes the fast path. */
#define GCM_TAG_LEN 16
#define GCM_NONCE_LEN 12

/* Plaintext per nonce: 2^39 - 256 bits = 2^36 - 32 bytes. */
#define GCM_MAX_DATA_LEN ((uint64_t)0xfffffffe0)
/* Additional data: 2^64 - 1 bits, rounded down to whole bytes. */
#define GCM_MAX_AAD_LEN ((uint64_t)0x1fffffffffffffff)
/* Nonce: 2^64 - 1 bits, rounded down to whole bytes. */
#define GCM_MAX_NONCE_LEN ((uint64_t)0x1fffffffffffffff)

/* ---------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------- */

typedef enum gcm_error {
  GCM_OK = 0,
  GCM_ERR_NULL_POINTER,      /* a required pointer was NULL */
  GCM_ERR_KEY_LENGTH,        /* key is not 16, 24 or 32 bytes */
  GCM_ERR_NONCE_LENGTH,      /* nonce empty or longer than the limit */
  GCM_ERR_TAG_LENGTH,        /* tag length not in 1..16 */
  GCM_ERR_TOO_LONG,          /* plaintext or AAD over the GCM limit */
  GCM_ERR_OUTPUT_TOO_SMALL,  /* an output buffer cannot hold the result */
  GCM_ERR_OVERLAP,           /* an output partially overlaps an input */
  GCM_ERR_AUTH,              /* open: the tag does not match */
  GCM_ERR_STATE,             /* streaming call out of order */
  GCM_ERR_BACKEND_UNKNOWN,   /* a backend name (argument or environment) is
                                not one libgcm has */
  GCM_ERR_BACKEND_UNUSABLE,  /* the named backend cannot run on this CPU */
  GCM_ERR_NOT_INITIALIZED,   /* the key or stream was never initialised or
                                has been cleaned up */
  GCM_ERR_NONCE_ORDER,       /* TLS AEADs: nonce reused or decreased */
  GCM_ERR_INVALID_ARGUMENT,  /* any other bad argument */
  GCM_ERR_RANDOM             /* the operating system's random source failed
                                (only the compat layer's randnonce AEADs
                                ask it for bytes) */
} gcm_error;

/* Returns the reason for the last failure on the calling thread, or GCM_OK.
 * Successful calls do not reset it. */
GCM_EXPORT gcm_error gcm_last_error(void);

/* Returns a short English description of the last failure on the calling
 * thread, naming the offending value where that helps (for example the
 * backend name given in LIBGCM_AES). Never NULL; valid until the thread's
 * next libgcm call. */
GCM_EXPORT const char *gcm_last_error_message(void);

/* Returns a fixed description of `err`. Never NULL. */
GCM_EXPORT const char *gcm_error_string(gcm_error err);

/* ---------------------------------------------------------------------------
 * Keys
 * ------------------------------------------------------------------------- */

/* An expanded key: the AES key schedule, the GHASH key H and whatever the
 * chosen backends precompute from it, and the backends themselves. Treat the
 * contents as opaque. Copying a gcm_key with memcpy gives a working copy
 * (see "Alignment" below for copies to other addresses); both must be
 * cleaned up.
 *
 * The type is large enough for a key on any backends. A key uses only what
 * its backends keep (560 bytes for the hardware pairs on x86_64, 496 on
 * aarch64, up to about 3 KB for the software ones); callers that hold
 * many keys can give each exactly that, see gcm_key_size_for.
 *
 * Alignment. Every function here works on a gcm_key or gcm_stream at any
 * address: one declared normally, from malloc (which promises only 16
 * bytes), inside a packed struct or from a hand-rolled allocator. libgcm
 * keeps its data at an aligned offset inside the object, worked out from
 * the object's address on every call, and never relies on the alignment
 * the type declares (64 bytes for gcm_key, 16 for gcm_stream); the data
 * itself sits at 16-byte alignment, so any address serves equally:
 *  - A memcpy copy of an initialised gcm_key at an address with the same
 *    remainder modulo 16 as the original (for instance any two gcm_key
 *    variables, or two blocks from malloc) works exactly like the
 *    original. A copy at another remainder works too, with the same
 *    results, but every call on it first copies the key to an aligned
 *    place on its stack (and wipes it afterwards), which costs about as
 *    much as sealing a few hundred bytes; gcm_key_init the copy instead
 *    where speed matters. The copy stays read-only and may be shared
 *    between threads like any key.
 *  - A gcm_stream copied with memcpy (in mid-message too) goes on from
 *    where the original was; at another remainder modulo 16 its next call
 *    moves its data into place first (a stream belongs to one thread).
 * The object must not be moved while a call on it runs, and a stream
 * started on a key keeps using that key's address, as always. */
typedef struct gcm_key {
  GCM_ALIGNAS(64) unsigned char opaque[3648];
} gcm_key;

/* Expands `key` (16, 24 or 32 bytes) with the default backends: the fastest
 * constant-time pair this CPU can run and the fused kernel made for that
 * pair, if any (see gcm_key_init_with_fused), unless the environment
 * variables LIBGCM_AES / LIBGCM_GHASH / LIBGCM_FUSED name others or
 * OPENSSL_ia32cap masks CPU features (all read once, on the first call
 * into libgcm; ignored in setuid, setgid and file-capability processes,
 * see "Environment variables" above).
 *
 * Returns 1 on success. On failure returns 0 and leaves `k` zeroed: a wrong
 * key length (GCM_ERR_KEY_LENGTH), or an environment variable naming an
 * unknown backend, one this CPU cannot run, a fused kernel that does not
 * fit the pair or a variable-time backend the build does not take from the
 * environment (GCM_ERR_BACKEND_UNKNOWN, GCM_ERR_BACKEND_UNUSABLE; the
 * message says which and why); a bad name is never silently replaced. */
GCM_EXPORT int gcm_key_init(gcm_key *k, const uint8_t *key, size_t key_len);

/* Like gcm_key_init, but uses the AES backend called `aes_backend` and the
 * GHASH backend called `ghash_backend` (see gcm_backend_count). NULL means
 * "the default" for that half, exactly as gcm_key_init would choose. A name
 * given here takes precedence over the environment. Variable-time backends
 * (currently "4bit") are only ever used when named. The fused kernel is
 * the default for the resulting pair: LIBGCM_FUSED if set, else automatic
 * (gcm_key_init_with_fused with fused_backend NULL). */
GCM_EXPORT int gcm_key_init_with_backends(gcm_key *k, const uint8_t *key,
                                          size_t key_len,
                                          const char *aes_backend,
                                          const char *ghash_backend);

/* Like gcm_key_init_with_backends, and also chooses the key's fused bulk
 * kernel: a kernel that runs AES-CTR and GHASH in one pass over runs of
 * whole blocks (see gcm_backend_count, kind GCM_BACKEND_FUSED). A key
 * without one runs the two passes (CTR, then GHASH over the ciphertext);
 * both give identical results, only speed differs.
 *
 * `fused_backend`:
 *   NULL    the default: the name in LIBGCM_FUSED if that is set (read
 *           once, with LIBGCM_AES and LIBGCM_GHASH), else the first kernel
 *           in the list that is constant-time, runs on this CPU and was
 *           made for the key's (AES, GHASH) pair; none if there is none.
 *           Kernels that exist to be named (the portable loop "c") are
 *           never picked this way.
 *   "none"  the two-pass path, whatever the environment says.
 *   a name  that kernel. It must exist (else GCM_ERR_BACKEND_UNKNOWN),
 *           run on this CPU and fit the key's pair (else
 *           GCM_ERR_BACKEND_UNUSABLE; gcm_fused_backend_pair tells which
 *           pair a kernel fits). The message names it; it is never
 *           replaced by another kernel or by the two passes.
 * The pair is chosen first, exactly as gcm_key_init_with_backends does.
 * On failure returns 0 and leaves `k` zeroed, like gcm_key_init. */
GCM_EXPORT int gcm_key_init_with_fused(gcm_key *k, const uint8_t *key,
                                       size_t key_len,
                                       const char *aes_backend,
                                       const char *ghash_backend,
                                       const char *fused_backend);

/* The number of bytes of memory a key on the given backends takes, for
 * gcm_key_init_sized: the backends are chosen exactly as
 * gcm_key_init_with_fused would choose them from the same three arguments
 * (NULL for a default; the environment and OPENSSL_ia32cap apply, read
 * once per process, so the answer for given arguments does not change
 * while the process runs). It counts in the up to 16 bytes libgcm may skip
 * to align its data, so memory of this size works at any address. The
 * size does not depend on the key length.
 *
 * Returns the size, or 0 when the backends cannot be chosen, with the
 * reason as for gcm_key_init_with_fused (GCM_ERR_BACKEND_UNKNOWN,
 * GCM_ERR_BACKEND_UNUSABLE; the message names the backend). */
GCM_EXPORT size_t gcm_key_size_for(const char *aes_backend,
                                   const char *ghash_backend,
                                   const char *fused_backend);

/* Like gcm_key_init_with_fused, but into the `size` bytes at `k` only,
 * which need not be a whole gcm_key: memory of gcm_key_size_for(aes_backend,
 * ghash_backend, fused_backend) bytes (or more) from malloc or anywhere
 * else, at any address (nothing beyond the alignment of a byte is needed;
 * see "Alignment" at gcm_key). libgcm never reads or writes a byte of it
 * past `size`, in this call or any later one on the key.
 *
 * Returns 1 on success. On failure returns 0 and leaves the `size` bytes
 * zeroed: the errors of gcm_key_init_with_fused, and
 * GCM_ERR_OUTPUT_TOO_SMALL when `size` is less than the backends chosen
 * need (the message gives both sizes). The key is then used like any
 * other: gcm_seal, gcm_open, streams, the accessors, and gcm_key_cleanup,
 * which wipes exactly the bytes the key took. A memcpy copy of it needs
 * as many bytes as the original was given. */
GCM_EXPORT int gcm_key_init_sized(gcm_key *k, size_t size, const uint8_t *key,
                                  size_t key_len, const char *aes_backend,
                                  const char *ghash_backend,
                                  const char *fused_backend);

/* Wipes the key schedule, H and every value derived from them: every byte
 * of `k` the key occupies (for a key from gcm_key_init_sized, within the
 * size it was given), no byte after it. `k` may be NULL or already
 * cleaned; afterwards it must be initialised again before use. */
GCM_EXPORT void gcm_key_cleanup(gcm_key *k);

/* The names of the backends `k` uses, or NULL if `k` is not initialised. */
GCM_EXPORT const char *gcm_key_aes_backend(const gcm_key *k);
GCM_EXPORT const char *gcm_key_ghash_backend(const gcm_key *k);

/* The name of the fused kernel `k` uses, "none" when it runs the two
 * passes, or NULL if `k` is not initialised. */
GCM_EXPORT const char *gcm_key_fused_backend(const gcm_key *k);

/* The key length `k` was initialised with (16, 24 or 32), or 0. */
GCM_EXPORT size_t gcm_key_length(const gcm_key *k);

/* ---------------------------------------------------------------------------
 * One-shot seal and open
 * ------------------------------------------------------------------------- */

/* Encrypts `in_len` bytes of `in` into `out` (which must have room for
 * in_len bytes) and writes a `tag_len`-byte tag to `tag`, authenticating
 * `aad` as well. tag_len is 1..16; 16 is the full tag and what almost every
 * protocol wants (SP 800-38D allows 12..16 generally, 4 and 8 only with the
 * limits of its appendix C).
 *
 * `out` may equal `in`; `tag` must not overlap `in`, `out`, `aad` or
 * `nonce`, and `out` must not overlap `aad` or `nonce`.
 *
 * Returns 1 on success. On failure returns 0 with `out` (in_len bytes) and
 * `tag` (tag_len bytes) zeroed where those pointers are non-NULL; the reason
 * is one of GCM_ERR_NULL_POINTER, GCM_ERR_NOT_INITIALIZED,
 * GCM_ERR_NONCE_LENGTH, GCM_ERR_TAG_LENGTH, GCM_ERR_TOO_LONG,
 * GCM_ERR_OVERLAP. */
GCM_EXPORT int gcm_seal(const gcm_key *k, uint8_t *out, uint8_t *tag,
                        size_t tag_len, const uint8_t *nonce, size_t nonce_len,
                        const uint8_t *in, size_t in_len, const uint8_t *aad,
                        size_t aad_len);

/* Checks `tag` (tag_len bytes, 1..16) over `aad` and the ciphertext `in`,
 * and writes the in_len bytes of plaintext to `out`. The tag comparison
 * takes the same time whichever byte differs.
 *
 * `out` may equal `in`; otherwise it must not overlap `in`, `tag`, `aad` or
 * `nonce`.
 *
 * Returns 1 only when the tag is right. On any failure (GCM_ERR_AUTH for a
 * wrong tag, or an argument error as for gcm_seal) returns 0 and `out` holds
 * in_len zero bytes: no unauthenticated plaintext is ever left behind. */
GCM_EXPORT int gcm_open(const gcm_key *k, uint8_t *out, const uint8_t *nonce,
                        size_t nonce_len, const uint8_t *in, size_t in_len,
                        const uint8_t *tag, size_t tag_len, const uint8_t *aad,
                        size_t aad_len);

/* ---------------------------------------------------------------------------
 * Streaming (EVP-style): init -> aad* -> update* -> finish
 *
 * Data may be fed in pieces of any size, and the result equals the one-shot
 * functions for the same inputs. All AAD must come before the first
 * update; after finish the stream must be re-initialised.
 *
 * WARNING: a decrypting stream hands out plaintext before the tag has been
 * checked. A caller must not act on that plaintext until
 * gcm_stream_finish_open returns 1, and must discard it otherwise. Callers
 * that cannot guarantee this must use gcm_open, which releases nothing
 * unless the tag is right.
 * ------------------------------------------------------------------------- */

/* A message in progress. Like gcm_key, it works at any address (see
 * "Alignment" at gcm_key). */
typedef struct gcm_stream {
  GCM_ALIGNAS(16) unsigned char opaque[528];
} gcm_stream;

typedef enum gcm_direction { GCM_ENCRYPT = 1, GCM_DECRYPT = 2 } gcm_direction;

/* Starts a message under `k` (which must outlive the stream and stay
 * initialised) and `nonce`. Returns 1, or 0 with the stream unusable
 * (GCM_ERR_NULL_POINTER, GCM_ERR_NOT_INITIALIZED, GCM_ERR_NONCE_LENGTH,
 * GCM_ERR_INVALID_ARGUMENT for a bad direction). */
GCM_EXPORT int gcm_stream_init(gcm_stream *s, const gcm_key *k,
                               gcm_direction dir, const uint8_t *nonce,
                               size_t nonce_len);

/* Adds `len` bytes of additional data. Fails with GCM_ERR_STATE after the
 * first gcm_stream_update or after finish, and with GCM_ERR_TOO_LONG when
 * the total would pass GCM_MAX_AAD_LEN. A failure ends the stream: every
 * later call on it fails with GCM_ERR_STATE until it is initialised again. */
GCM_EXPORT int gcm_stream_aad(gcm_stream *s, const uint8_t *aad, size_t len);

/* Encrypts or decrypts `len` bytes of `in` into `out` (len bytes; out == in
 * allowed, other overlap refused). Fails with GCM_ERR_STATE after finish and
 * with GCM_ERR_TOO_LONG when the total would pass GCM_MAX_DATA_LEN; on
 * failure `out` (len bytes) is zeroed and the stream is ended. */
GCM_EXPORT int gcm_stream_update(gcm_stream *s, uint8_t *out,
                                 const uint8_t *in, size_t len);

/* Encrypting streams: writes the tag (tag_len 1..16) and ends the stream. */
GCM_EXPORT int gcm_stream_finish_seal(gcm_stream *s, uint8_t *tag,
                                      size_t tag_len);

/* Decrypting streams: returns 1 when `tag` is right, 0 otherwise
 * (GCM_ERR_AUTH), and ends the stream either way. */
GCM_EXPORT int gcm_stream_finish_open(gcm_stream *s, const uint8_t *tag,
                                      size_t tag_len);

/* Wipes the stream's state (counter, key stream, partial hash). */
GCM_EXPORT void gcm_stream_cleanup(gcm_stream *s);

/* ---------------------------------------------------------------------------
 * Backends
 * ------------------------------------------------------------------------- */

typedef enum gcm_backend_kind {
  GCM_BACKEND_AES = 1,
  GCM_BACKEND_GHASH = 2,
  /* A fused AES-CTR + GHASH kernel for one (AES, GHASH) pair, or for any
   * pair ("c"); see gcm_key_init_with_fused. */
  GCM_BACKEND_FUSED = 3
} gcm_backend_kind;

typedef struct gcm_backend_info {
  gcm_backend_kind kind;
  const char *name;     /* e.g. "ct", "ct64", "4bit" */
  const char *requires; /* CPU features it needs, e.g. "none", "SSSE3" */
  int usable;           /* 1 when this CPU (after OPENSSL_ia32cap) runs it */
  int constant_time;    /* 1 when no secret reaches a branch or an address */
} gcm_backend_info;

/* The number of backends compiled in: AES, GHASH and fused together. */
GCM_EXPORT size_t gcm_backend_count(void);

/* Fills `*info` for backend `index` (< gcm_backend_count()): every AES
 * backend, then every GHASH backend, then every fused kernel, each kind
 * from the most to the least preferred. Callers that handle only some
 * kinds must check info->kind: kinds may be added. Returns 1, or 0 for a
 * bad index or NULL info. */
GCM_EXPORT int gcm_backend_get(size_t index, gcm_backend_info *info);

/* Returns 1 when a backend of that kind and name exists and this CPU can run
 * it, else 0. */
GCM_EXPORT int gcm_backend_is_available(gcm_backend_kind kind,
                                        const char *name);

/* Reports the pair gcm_key_init would choose now, after LIBGCM_AES,
 * LIBGCM_GHASH and OPENSSL_ia32cap. Returns 1, or 0 when the environment
 * names an unknown or unusable backend (see gcm_last_error_message). */
GCM_EXPORT int gcm_default_backends(const char **aes_name,
                                    const char **ghash_name);

/* Reports the pair a fused kernel was made for: *aes_name and *ghash_name
 * are the backend names, or NULL where the kernel works with any backend
 * of that kind (both NULL for "c"). Returns 1, or 0 with
 * GCM_ERR_BACKEND_UNKNOWN for a name that is not a fused kernel
 * (GCM_ERR_NULL_POINTER for NULL); the outputs are NULL then. Either
 * output pointer may be NULL. */
GCM_EXPORT int gcm_fused_backend_pair(const char *fused_name,
                                      const char **aes_name,
                                      const char **ghash_name);

/* Reports the fused kernel gcm_key_init would attach now ("none" for the
 * two passes), after LIBGCM_AES, LIBGCM_GHASH, LIBGCM_FUSED and
 * OPENSSL_ia32cap. Returns 1, or 0 (with *fused_name NULL) when the
 * environment names an unknown or unusable backend or a fused kernel that
 * does not fit the default pair. fused_name may be NULL. */
GCM_EXPORT int gcm_default_fused_backend(const char **fused_name);

/* ---------------------------------------------------------------------------
 * AES-GCM-SIV (RFC 8452): nonce-misuse-resistant authenticated encryption
 *
 * AES-GCM-SIV is built from the same two parts as AES-GCM: AES in counter
 * mode and a polynomial hash over GF(2^128) (POLYVAL, GHASH's mirror
 * image). Per message it derives a fresh authentication key and encryption
 * key from the key and the nonce, hashes the AAD and the plaintext, makes
 * the tag from that hash, and encrypts the plaintext in counter mode
 * starting from the tag (a "synthetic IV"). So the same nonce used twice
 * with different messages gives unrelated key streams and reveals only
 * whether two messages (AAD and plaintext) were equal, where AES-GCM would
 * reveal the GHASH key and allow forgeries. Nonces should still differ
 * wherever the caller can make them differ: RFC 8452, section 9, states
 * how many messages one key may seal with random nonces.
 *
 * The calls follow the conventions at the top of this file: 1/0 returns,
 * gcm_last_error() after a failure, caller-owned objects, no allocation,
 * out == in allowed and any other overlap refused (GCM_ERR_OVERLAP), every
 * output zeroed on failure. A gcm_siv_key, like a gcm_key, is read-only
 * after gcm_siv_key_init, works at any address (see "Alignment" at
 * gcm_key: a memcpy copy at another remainder modulo 16 works too, on an
 * aligned stack copy per call) and may be shared between threads.
 *
 * There is no streaming form, by the algorithm's design: sealing must hash
 * all of the plaintext before the first byte can be encrypted (the
 * counter starts from the tag), and opening must decrypt all of the
 * ciphertext before the tag can be checked, so any incremental interface
 * would either buffer the whole message or hand out unauthenticated
 * plaintext. One-shot calls over whole messages are the interface.
 *
 * Sizes (RFC 8452, section 4): keys of 16 or 32 bytes (AES-128 and
 * AES-256 as the key-generating key; no 24-byte variant is defined),
 * nonces of exactly 12 bytes, tags of exactly 16 bytes, at most 2^36 bytes
 * of plaintext and 2^36 bytes of AAD per message.
 * ------------------------------------------------------------------------- */

#define GCM_SIV_NONCE_LEN 12
#define GCM_SIV_TAG_LEN 16
/* Plaintext per message and AAD per message: 2^36 bytes each. */
#define GCM_SIV_MAX_DATA_LEN ((uint64_t)1 << 36)
#define GCM_SIV_MAX_AAD_LEN ((uint64_t)1 << 36)

/* An expanded AES-GCM-SIV key: the key-generating key's AES schedule and
 * the backends chosen for it. Treat the contents as opaque; copy and
 * clean up as for gcm_key. (Its size leaves room for the largest AES
 * schedule any backend keeps; a key uses only a 32-byte header and its
 * own backend's schedule, 288 bytes on the round-key backends such as
 * AES-NI and Armv8, after up to 16 bytes of alignment, and
 * gcm_siv_key_cleanup wipes those. Callers that hold many keys can give
 * each exactly that, see gcm_siv_key_size_for.) */
typedef struct gcm_siv_key {
  GCM_ALIGNAS(64) unsigned char opaque[2304];
} gcm_siv_key;

/* Expands `key` (16 or 32 bytes) with the default backends, chosen exactly
 * as gcm_key_init chooses its pair (LIBGCM_AES / LIBGCM_GHASH and
 * OPENSSL_ia32cap honoured, ignored in privileged processes). The GHASH
 * backend computes POLYVAL (RFC 8452, appendix A relates the two).
 * Returns 1 on success. On failure returns 0 and leaves `k` zeroed:
 * GCM_ERR_NULL_POINTER, GCM_ERR_KEY_LENGTH (not 16 or 32 bytes), or a
 * backend named by the environment that is unknown or cannot run
 * (GCM_ERR_BACKEND_UNKNOWN, GCM_ERR_BACKEND_UNUSABLE). */
GCM_EXPORT int gcm_siv_key_init(gcm_siv_key *k, const uint8_t *key,
                                size_t key_len);

/* Like gcm_siv_key_init, with the AES and GHASH backends named as for
 * gcm_key_init_with_backends (NULL: the default for that half). */
GCM_EXPORT int gcm_siv_key_init_with_backends(gcm_siv_key *k,
                                              const uint8_t *key,
                                              size_t key_len,
                                              const char *aes_backend,
                                              const char *ghash_backend);

/* Like gcm_siv_key_init_with_backends, and also chooses the fused kernel
 * whose AES-GCM-SIV functions the key uses: the fused kernels of
 * gcm_key_init_with_fused that have them (GCM_BACKEND_FUSED; on x86_64
 * "vaes_avx512", "vaes_avx2", "aesni_avx" and "aesni_sse", on aarch64
 * "armv8_pmull") decrypt and hash in one pass when opening, and some also
 * run counter mode and POLYVAL in wider registers. A key without one goes through its two backends alone; both
 * give identical results, only speed differs.
 *
 * `fused_backend` as for gcm_key_init_with_fused: NULL is the default
 * (LIBGCM_FUSED if set, none when that kernel has no AES-GCM-SIV
 * functions; else the first kernel, in the list's order, that a gcm_key
 * on the pair could get by default and that has them), "none" the
 * backends alone, and a name that kernel, which must exist
 * (GCM_ERR_BACKEND_UNKNOWN), run on this CPU, fit the pair and have
 * AES-GCM-SIV functions (else GCM_ERR_BACKEND_UNUSABLE). */
GCM_EXPORT int gcm_siv_key_init_with_fused(gcm_siv_key *k, const uint8_t *key,
                                           size_t key_len,
                                           const char *aes_backend,
                                           const char *ghash_backend,
                                           const char *fused_backend);

/* The number of bytes of memory an AES-GCM-SIV key on the given backends
 * takes, for gcm_siv_key_init_sized: the backends are chosen exactly as
 * gcm_siv_key_init_with_fused would choose them from the same three
 * arguments (NULL for a default; the environment and OPENSSL_ia32cap
 * apply, read once per process, so the answer for given arguments does
 * not change while the process runs). It counts in the up to 16 bytes
 * libgcm may skip to align its data, so memory of this size works at any
 * address. The size does not depend on the key length.
 *
 * Returns the size, or 0 when the backends cannot be chosen, with the
 * reason as for gcm_siv_key_init_with_fused (GCM_ERR_BACKEND_UNKNOWN,
 * GCM_ERR_BACKEND_UNUSABLE; the message names the backend). */
GCM_EXPORT size_t gcm_siv_key_size_for(const char *aes_backend,
                                       const char *ghash_backend,
                                       const char *fused_backend);

/* Like gcm_siv_key_init_with_fused, but into the `size` bytes at `k`
 * only, which need not be a whole gcm_siv_key: memory of
 * gcm_siv_key_size_for(aes_backend, ghash_backend, fused_backend) bytes
 * (or more) from malloc or anywhere else, at any address (nothing beyond
 * the alignment of a byte is needed; see "Alignment" at gcm_key). libgcm
 * never reads or writes a byte of it past `size`, in this call or any
 * later one on the key.
 *
 * Returns 1 on success. On failure returns 0 and leaves the `size` bytes
 * zeroed: the errors of gcm_siv_key_init_with_fused, and
 * GCM_ERR_OUTPUT_TOO_SMALL when `size` is less than the backends chosen
 * need (the message gives both sizes). The key is then used like any
 * other: gcm_siv_seal, gcm_siv_open, the accessors, and
 * gcm_siv_key_cleanup, which wipes exactly the bytes the key took. A
 * memcpy copy of it needs as many bytes as the original was given. */
GCM_EXPORT int gcm_siv_key_init_sized(gcm_siv_key *k, size_t size,
                                      const uint8_t *key, size_t key_len,
                                      const char *aes_backend,
                                      const char *ghash_backend,
                                      const char *fused_backend);

/* Wipes the key: every byte of `k` the key occupies (for a key from
 * gcm_siv_key_init_sized, within the size it was given), no byte after
 * it. `k` may be NULL or already cleaned. */
GCM_EXPORT void gcm_siv_key_cleanup(gcm_siv_key *k);

/* The names of the backends `k` uses, or NULL if `k` is not initialised;
 * the fused kernel's is "none" when it uses none. */
GCM_EXPORT const char *gcm_siv_key_aes_backend(const gcm_siv_key *k);
GCM_EXPORT const char *gcm_siv_key_ghash_backend(const gcm_siv_key *k);
GCM_EXPORT const char *gcm_siv_key_fused_backend(const gcm_siv_key *k);

/* Encrypts `in_len` bytes of `in` into `out` (room for in_len bytes) and
 * writes the 16-byte tag to `tag`, authenticating `aad` as well. tag_len
 * must be GCM_SIV_TAG_LEN and nonce_len GCM_SIV_NONCE_LEN: the tag is
 * also the initial counter, and cannot be shortened.
 *
 * `out` may equal `in`; `tag` must not overlap `in`, `out`, `aad` or
 * `nonce`, and `out` must not overlap `aad` or `nonce`.
 *
 * Returns 1 on success. On failure returns 0 with `out` (in_len bytes) and
 * `tag` (tag_len bytes, at most 16) zeroed where those pointers are
 * non-NULL; the reason is one of GCM_ERR_NULL_POINTER,
 * GCM_ERR_NOT_INITIALIZED, GCM_ERR_NONCE_LENGTH, GCM_ERR_TAG_LENGTH,
 * GCM_ERR_TOO_LONG (over GCM_SIV_MAX_DATA_LEN or GCM_SIV_MAX_AAD_LEN),
 * GCM_ERR_OVERLAP. */
GCM_EXPORT int gcm_siv_seal(const gcm_siv_key *k, uint8_t *out, uint8_t *tag,
                            size_t tag_len, const uint8_t *nonce,
                            size_t nonce_len, const uint8_t *in,
                            size_t in_len, const uint8_t *aad,
                            size_t aad_len);

/* Decrypts the in_len bytes of ciphertext `in` into `out` and checks the
 * 16-byte `tag` (tag_len must be GCM_SIV_TAG_LEN) over `aad` and the
 * plaintext. The comparison takes the same time whichever byte differs.
 *
 * `out` may equal `in`; otherwise it must not overlap `in`, `tag`, `aad` or
 * `nonce`.
 *
 * Returns 1 only when the tag is right. On any failure (GCM_ERR_AUTH for a
 * wrong tag, or an argument error as for gcm_siv_seal) returns 0 and `out`
 * holds in_len zero bytes: the plaintext, which AES-GCM-SIV must compute
 * before it can check the tag, never stays behind. */
GCM_EXPORT int gcm_siv_open(const gcm_siv_key *k, uint8_t *out,
                            const uint8_t *nonce, size_t nonce_len,
                            const uint8_t *in, size_t in_len,
                            const uint8_t *tag, size_t tag_len,
                            const uint8_t *aad, size_t aad_len);

/* The version of the linked library as "MAJOR.MINOR.PATCH", e.g. "1.0.0"
 * (GCM_VERSION_STRING of the headers it was built from). Never NULL; a
 * static string. */
GCM_EXPORT const char *gcm_version(void);

/* The version of the linked library as GCM_VERSION_NUMBER of the headers
 * it was built from (0x010000 for 1.0.0). A program that needs a feature
 * of version X.Y can check gcm_version_number() >= the number for X.Y at
 * run time, and GCM_VERSION_NUMBER at compile time. */
GCM_EXPORT unsigned long gcm_version_number(void);

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* LIBGCM_GCM_H */
