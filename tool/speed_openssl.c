/*
 * tool/speed_openssl.c: the system OpenSSL for --openssl, loaded with
 * dlopen at run time (libcrypto.so.3, else libcrypto.so), so that neither
 * libgcm nor gcm-speed links against it. Only the EVP_CIPHER calls an
 * AES-GCM seal and open need are looked up, with their C types written out
 * here rather than taken from OpenSSL's headers, which need not be
 * installed. A context is keyed once and each operation sets only the IV,
 * as `openssl speed -aead` does.
 *
 * cross_check runs before every --openssl measurement: libgcm and OpenSSL
 * must seal to the same bytes, or nothing is measured.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

/* The loader: dlopen/dlsym, or on Windows LoadLibraryA/GetProcAddress with
 * the names OpenSSL 3's and 1.1's DLLs have there. */
#if defined(_WIN32)
#include <windows.h>
static const char *const kNames[] = {
#if defined(_WIN64)
    "libcrypto-3-x64.dll", "libcrypto-1_1-x64.dll"
#else
    "libcrypto-3.dll", "libcrypto-1_1.dll"
#endif
};
static void *lib_open(const char *name) { return (void *)LoadLibraryA(name); }
static void *lib_sym(void *lib, const char *name) {
  /* A FARPROC is a function pointer; it goes through uintptr_t to the
   * object pointer the callers cast back to their function types. */
  return (void *)(uintptr_t)GetProcAddress((HMODULE)lib, name);
}
#else
#include <dlfcn.h>
static const char *const kNames[] = {"libcrypto.so.3", "libcrypto.so"};
static void *lib_open(const char *name) {
  return dlopen(name, RTLD_NOW | RTLD_LOCAL);
}
static void *lib_sym(void *lib, const char *name) { return dlsym(lib, name); }
#endif


/* Values of EVP_CTRL_GCM_SET_IVLEN, _GET_TAG and _SET_TAG in OpenSSL's ABI. */
#define OSSL_CTRL_GCM_SET_IVLEN 0x9
#define OSSL_CTRL_GCM_GET_TAG 0x10
#define OSSL_CTRL_GCM_SET_TAG 0x11

/* EVP_EncryptInit_ex / _Update / _Final_ex, or the Decrypt ones: the same
 * C types both ways. */
struct ossl_calls {
  int (*init)(void *, const void *, void *, const uint8_t *, const uint8_t *);
  int (*update)(void *, uint8_t *, int *, const uint8_t *, int);
  int (*final)(void *, uint8_t *, int *);
};

struct ossl {
  void *handle;
  const char *soname;
  const char *version;
  void *(*ctx_new)(void);
  void (*ctx_free)(void *);
  int (*ctrl)(void *, int, int, void *);
  const void *(*cipher[NUM_ALGOS])(void);
  struct ossl_calls enc, dec;
};

static struct ossl g_ossl;

static void *ossl_sym(const char *name, int required) {
  void *p = lib_sym(g_ossl.handle, name);
  if (p == NULL && required) {
    die("%s has no symbol %s; --openssl needs OpenSSL 1.1 or later",
        g_ossl.soname, name);
  }
  return p;
}

/* EVP_<way>Init_ex, EVP_<way>Update and EVP_<way>Final_ex. */
static void ossl_calls_load(struct ossl_calls *c, const char *way) {
  char name[32];
  snprintf(name, sizeof(name), "EVP_%sInit_ex", way);
  c->init = (int (*)(void *, const void *, void *, const uint8_t *,
                     const uint8_t *))ossl_sym(name, 1);
  snprintf(name, sizeof(name), "EVP_%sUpdate", way);
  c->update =
      (int (*)(void *, uint8_t *, int *, const uint8_t *, int))ossl_sym(name, 1);
  snprintf(name, sizeof(name), "EVP_%sFinal_ex", way);
  c->final = (int (*)(void *, uint8_t *, int *))ossl_sym(name, 1);
}

void ossl_load(void) {
  /* NULL for AES-GCM-SIV, which --openssl does not measure (parse_args
   * leaves it out). */
  static const char *const kCiphers[NUM_ALGOS] = {
      "EVP_aes_128_gcm", "EVP_aes_192_gcm", "EVP_aes_256_gcm", NULL, NULL};
  const char *(*version)(int);

  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); i++) {
    g_ossl.handle = lib_open(kNames[i]);
    if (g_ossl.handle != NULL) {
      g_ossl.soname = kNames[i];
      break;
    }
  }
  if (g_ossl.handle == NULL) {
    die("--openssl: cannot load OpenSSL's libcrypto (tried %s and %s); "
        "install OpenSSL's shared library or run without --openssl",
        kNames[0], kNames[1]);
  }
  g_ossl.ctx_new = (void *(*)(void))ossl_sym("EVP_CIPHER_CTX_new", 1);
  g_ossl.ctx_free = (void (*)(void *))ossl_sym("EVP_CIPHER_CTX_free", 1);
  g_ossl.ctrl = (int (*)(void *, int, int, void *))ossl_sym(
      "EVP_CIPHER_CTX_ctrl", 1);
  for (size_t i = 0; i < NUM_ALGOS; i++) {
    if (kCiphers[i] == NULL) continue;
    g_ossl.cipher[i] = (const void *(*)(void))ossl_sym(kCiphers[i], 1);
  }
  ossl_calls_load(&g_ossl.enc, "Encrypt");
  ossl_calls_load(&g_ossl.dec, "Decrypt");
  version = (const char *(*)(int))ossl_sym("OpenSSL_version", 0);
  g_ossl.version = version ? version(0 /* OPENSSL_VERSION */) : NULL;
  if (g_ossl.version == NULL) g_ossl.version = g_ossl.soname;
}

const char *ossl_version(void) { return g_ossl.version; }

/* A context keyed once; each operation then sets only the IV, as
 * `openssl speed -aead` does. */
void *ossl_ctx(size_t algo, const uint8_t *key, int dir) {
  void *ctx = g_ossl.ctx_new();
  int ok;
  if (ctx == NULL) die("OpenSSL: EVP_CIPHER_CTX_new failed");
  const struct ossl_calls *c = dir == DIR_SEAL ? &g_ossl.enc : &g_ossl.dec;
  ok = c->init(ctx, g_ossl.cipher[algo](), NULL, NULL, NULL) &&
       g_ossl.ctrl(ctx, OSSL_CTRL_GCM_SET_IVLEN, GCM_NONCE_LEN, NULL) &&
       c->init(ctx, NULL, NULL, key, NULL);
  if (!ok) die("OpenSSL: cannot set up %s", kAlgos[algo].name);
  return ctx;
}

int ossl_seal(void *ctx, uint8_t *out, uint8_t *tag,
              const uint8_t *nonce, const uint8_t *in, size_t len,
              const uint8_t *aad) {
  int l1 = 0, l2 = 0;
  return g_ossl.enc.init(ctx, NULL, NULL, NULL, nonce) &&
         g_ossl.enc.update(ctx, NULL, &l1, aad, AAD_LEN) &&
         g_ossl.enc.update(ctx, out, &l1, in, (int)len) &&
         g_ossl.enc.final(ctx, out + l1, &l2) &&
         g_ossl.ctrl(ctx, OSSL_CTRL_GCM_GET_TAG, GCM_TAG_LEN, tag);
}

int ossl_open(void *ctx, uint8_t *out, const uint8_t *nonce,
              const uint8_t *in, size_t len, const uint8_t *tag,
              const uint8_t *aad) {
  int l1 = 0, l2 = 0;
  return g_ossl.dec.init(ctx, NULL, NULL, NULL, nonce) &&
         g_ossl.dec.update(ctx, NULL, &l1, aad, AAD_LEN) &&
         g_ossl.dec.update(ctx, out, &l1, in, (int)len) &&
         g_ossl.ctrl(ctx, OSSL_CTRL_GCM_SET_TAG, GCM_TAG_LEN, (void *)tag) &&
         g_ossl.dec.final(ctx, out + l1, &l2) > 0;
}

void ossl_ctx_free(void *ctx) { g_ossl.ctx_free(ctx); }

/* When --openssl: libgcm and OpenSSL must produce the same bytes. */
void cross_check(size_t algo, size_t size, const gcm_key *k,
                 const uint8_t *key) {
  uint8_t *in = xmalloc(size), *a = xmalloc(size), *b = xmalloc(size);
  uint8_t nonce[GCM_NONCE_LEN], aad[AAD_LEN], ta[GCM_TAG_LEN], tb[GCM_TAG_LEN];
  void *ctx = ossl_ctx(algo, key, DIR_SEAL);
  for (size_t i = 0; i < size; i++) in[i] = (uint8_t)(i * 7 + 3);
  for (size_t i = 0; i < AAD_LEN; i++) aad[i] = (uint8_t)(0xa0 + i);
  make_nonce(nonce, 0xffffffffu, 42);
  if (!gcm_seal(k, a, ta, GCM_TAG_LEN, nonce, GCM_NONCE_LEN, in, size, aad,
                AAD_LEN)) {
    die("gcm_seal failed: %s", gcm_last_error_message());
  }
  if (!ossl_seal(ctx, b, tb, nonce, in, size, aad)) die("OpenSSL seal failed");
  if (memcmp(a, b, size) != 0 || memcmp(ta, tb, GCM_TAG_LEN) != 0) {
    die("libgcm and OpenSSL disagree on %s (%zu bytes): libgcm's output is "
        "wrong; not measuring",
        kAlgos[algo].name, size);
  }
  g_ossl.ctx_free(ctx);
  free(in);
  free(a);
  free(b);
}
