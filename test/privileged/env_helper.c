/*
 * test/privileged/env_helper.c: what libgcm (and, built with
 * LIBGCM_HELPER_PROVIDER, its OpenSSL provider) chose in this process, for
 * test/privileged/setuid_env_test.sh, which runs it once as a setuid
 * program and compares with unprivileged runs.
 *
 *   env_helper nosuid DIR        exit 0 when DIR's file system honours the
 *                                setuid bit, 3 when it is mounted nosuid
 *                                (statvfs ST_NOSUID), 1 when it cannot tell
 *   env_helper report [MODDIR]   prints one "key=value" line per choice:
 *     privileged=0|1   AT_SECURE as the kernel set it (diagnostic only)
 *     backends=A/G     gcm_default_backends, or "error: <message>"
 *     fused=F          gcm_default_fused_backend, or "error: <message>"
 *     usable=...       every backend gcm_backend_get reports usable: what
 *                      the CPU mask (OPENSSL_ia32cap, LIBGCM_ARMCAP) left
 *     and with MODDIR (the provider helper only): loads the provider
 *     module libgcm.so from MODDIR into its own library context, seals one
 *     message through EVP with provider=libgcm, and prints
 *     provider=loaded backends=A/G   or   provider=not loaded: <errors>
 *     The provider's statistics line (LIBGCM_PROVIDER_STATS) is written,
 *     if at all, when the process exits.
 *
 * The program reads no environment variable itself: it reports what the
 * library and the provider made of theirs.
 */
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#if defined(__linux__)
#include <sys/auxv.h>
#endif

#include <gcm/gcm.h>

#if defined(LIBGCM_HELPER_PROVIDER)
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#endif

static int check_nosuid(const char *dir) {
  struct statvfs st;
  if (statvfs(dir, &st) != 0) {
    perror(dir);
    return 1;
  }
  if (st.f_flag & ST_NOSUID) {
    printf("%s is on a file system mounted nosuid\n", dir);
    return 3;
  }
  return 0;
}

static void report_library(void) {
#if defined(__linux__) && defined(AT_SECURE)
  printf("privileged=%lu\n", getauxval(AT_SECURE));
#else
  printf("privileged=unknown\n");
#endif
  const char *aes = NULL, *ghash = NULL, *fused = NULL;
  if (gcm_default_backends(&aes, &ghash)) {
    printf("backends=%s/%s\n", aes, ghash);
  } else {
    printf("backends=error: %s\n", gcm_last_error_message());
  }
  if (gcm_default_fused_backend(&fused)) {
    printf("fused=%s\n", fused);
  } else {
    printf("fused=error: %s\n", gcm_last_error_message());
  }
  printf("usable=");
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    if (gcm_backend_get(i, &info) && info.usable) printf(" %s", info.name);
  }
  printf("\n");
}

#if defined(LIBGCM_HELPER_PROVIDER)
static void print_errors(void) {
  unsigned long e;
  char buf[256];
  while ((e = ERR_get_error()) != 0) {
    ERR_error_string_n(e, buf, sizeof(buf));
    printf(" %s;", buf);
  }
}

static int report_provider(const char *moddir) {
  OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
  if (ctx == NULL || !OSSL_PROVIDER_set_default_search_path(ctx, moddir)) {
    printf("provider=error: no library context\n");
    return 1;
  }
  OSSL_PROVIDER *prov = OSSL_PROVIDER_load(ctx, "libgcm");
  if (prov == NULL) {
    printf("provider=not loaded:");
    print_errors();
    printf("\n");
    OSSL_LIB_CTX_free(ctx);
    return 0;
  }
  /* One seal, so the module has done work and its counters are not 0. */
  int ok = 0;
  EVP_CIPHER *c = EVP_CIPHER_fetch(ctx, "AES-128-GCM", "provider=libgcm");
  EVP_CIPHER_CTX *cc = EVP_CIPHER_CTX_new();
  static const unsigned char key[16], iv[12], msg[16];
  unsigned char out[32], tag[16];
  int len = 0, fin = 0;
  if (c != NULL && cc != NULL && EVP_EncryptInit_ex2(cc, c, key, iv, NULL) &&
      EVP_EncryptUpdate(cc, out, &len, msg, (int)sizeof(msg)) &&
      EVP_EncryptFinal_ex(cc, out + len, &fin) &&
      EVP_CIPHER_CTX_ctrl(cc, EVP_CTRL_AEAD_GET_TAG, 16, tag)) {
    ok = 1;
  }
  EVP_CIPHER_CTX_free(cc);
  EVP_CIPHER_free(c);
  char *aes = NULL, *ghash = NULL;
  OSSL_PARAM params[] = {
      OSSL_PARAM_utf8_ptr("libgcm-aes-backend", &aes, 0),
      OSSL_PARAM_utf8_ptr("libgcm-ghash-backend", &ghash, 0),
      OSSL_PARAM_END,
  };
  if (!OSSL_PROVIDER_get_params(prov, params) || aes == NULL || ghash == NULL) {
    printf("provider=loaded backends=unknown seal=%s\n", ok ? "ok" : "failed");
  } else {
    printf("provider=loaded backends=%s/%s seal=%s\n", aes, ghash,
           ok ? "ok" : "failed");
  }
  /* Left loaded: the module's destructor, where the statistics are
   * written, runs at exit as in any OpenSSL program. */
  return ok ? 0 : 1;
}
#endif

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "nosuid") == 0) return check_nosuid(argv[2]);
  if (argc >= 2 && strcmp(argv[1], "report") == 0) {
    report_library();
#if defined(LIBGCM_HELPER_PROVIDER)
    if (argc == 3) return report_provider(argv[2]);
#endif
    if (argc == 2) return 0;
  }
  fprintf(stderr, "usage: env_helper nosuid DIR | report [MODULE_DIR]\n");
  return 2;
}
