/*
 * test/packaging/name_clash.c: a program that defines, for its own use,
 * the global names libgcm's archive used to export without a prefix
 * (error_set, secure_wipe, cpu_caps, dispatch_choose, aead_seal,
 * os_random_bytes, aes_aesni, ghash_clmul, ...), and links libgcm.a.
 * Before libgcm's internal names took the gcmi_ prefix the link failed
 * with "multiple definition of `error_set'"; now the program links, and
 * the library still works beside the program's own definitions: a seal
 * and an open round-trip (reaching the error, random, dispatch and CPU
 * code of the archive), and a failed open reports its error through
 * libgcm's own error code, not through the program's error_set.
 * Exits 0 when every check passes.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gcm/gcm.h>

/* The program's own names. Each is used below, so none is dropped. */
int error_set(int code);
void secure_wipe(void *p, size_t n);
uint32_t cpu_caps[4];
int dispatch_choose(int x);
int aead_seal(int x);
int aead_open(int x);
int os_random_bytes(void *p, size_t n);
int backend_env;
const char *aes_aesni = "the program's aes_aesni";
const char *ghash_clmul = "the program's ghash_clmul";
int cpu_detect(void);
int error_setf(int code);

static int own_calls;

int error_set(int code) { own_calls++; return code; }
int error_setf(int code) { own_calls++; return code; }
void secure_wipe(void *p, size_t n) { own_calls++; memset(p, 0, n); }
int dispatch_choose(int x) { own_calls++; return x + 1; }
int aead_seal(int x) { own_calls++; return x + 2; }
int aead_open(int x) { own_calls++; return x + 3; }
int os_random_bytes(void *p, size_t n) { own_calls++; memset(p, 7, n); return 1; }
int cpu_detect(void) { own_calls++; return 42; }

int main(void) {
  static const uint8_t key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  static const uint8_t nonce[GCM_NONCE_LEN] = {9};
  static const uint8_t msg[37] = "the program keeps its own names";
  uint8_t ct[sizeof msg], pt[sizeof msg], tag[GCM_TAG_LEN];
  gcm_key k;
  int failures = 0;

  if (!gcm_key_init(&k, key, sizeof key) ||
      !gcm_seal(&k, ct, tag, sizeof tag, nonce, sizeof nonce, msg, sizeof msg, NULL, 0) ||
      !gcm_open(&k, pt, nonce, sizeof nonce, ct, sizeof ct, tag, sizeof tag, NULL, 0) ||
      memcmp(pt, msg, sizeof msg) != 0) {
    fprintf(stderr, "name_clash: seal/open round trip failed\n");
    failures++;
  }
  tag[0] ^= 1;
  if (gcm_open(&k, pt, nonce, sizeof nonce, ct, sizeof ct, tag, sizeof tag, NULL, 0) ||
      gcm_last_error() != GCM_ERR_AUTH) {
    fprintf(stderr, "name_clash: a forged tag was not refused with GCM_ERR_AUTH\n");
    failures++;
  }
  if (own_calls != 0) {
    fprintf(stderr, "name_clash: libgcm called %d of the program's own functions\n", own_calls);
    failures++;
  }
  /* Use the program's names so the linker keeps every definition. */
  uint8_t scratch[4];
  secure_wipe(scratch, sizeof scratch);
  if (error_set(3) + error_setf(0) + dispatch_choose(0) + aead_seal(0) + aead_open(0) +
          os_random_bytes(scratch, sizeof scratch) + cpu_detect() + backend_env +
          (int)cpu_caps[0] != 3 + 1 + 2 + 3 + 1 + 42 ||
      aes_aesni[0] != 't' || ghash_clmul[0] != 't') {
    fprintf(stderr, "name_clash: the program's own definitions misbehaved\n");
    failures++;
  }
  gcm_key_cleanup(&k);
  if (failures == 0) printf("name_clash: ok\n");
  return failures == 0 ? 0 : 1;
}
