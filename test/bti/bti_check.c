/*
 * test/bti/bti_check.c: libgcm in a process that enforces Branch Target
 * Identification (Armv8.5 BTI), run by test/run_all.sh stage 3 under
 * `qemu-aarch64 -cpu max`.
 *
 * The program and libgcm are built with -mbranch-protection=standard and
 * linked with test/bti/bti_start.S instead of the C runtime's start files
 * (Debian's cross crt1.o/crtbegin.o carry no BTI note, so the linker would
 * otherwise drop the executable's BTI marking, and forcing it would fault
 * in their code). The executable then carries GNU_PROPERTY_AARCH64_FEATURE
 * _1_AND = BTI, and qemu maps its code with BTI enforced: an indirect
 * branch to anything but a landing pad raises SIGILL.
 *
 * Every backend reaches its kernels through function pointers in its
 * descriptor (an indirect call), so sealing with each aarch64 backend pair
 * checks that every kernel entry has its `bti c`. The result of each pair
 * is compared with the portable pair's, and that one with McGrew and
 * Viega's test case 2.
 *
 *   bti_check            exit 0 when every usable pair agrees
 *   bti_check negative   calls a function without a landing pad through a
 *                        pointer; must die of SIGILL (proves enforcement)
 */
#include <gcm/gcm.h>

#include <stdio.h>
#include <string.h>

/* A function with no landing pad (and nothing else): reached through a
 * pointer only in the negative control. */
void bti_check_no_landing_pad(void);
__asm__(
    "  .text\n"
    "  .p2align 2\n"
    "  .globl bti_check_no_landing_pad\n"
    "  .type bti_check_no_landing_pad, %function\n"
    "bti_check_no_landing_pad:\n"
    "  ret\n"
    "  .size bti_check_no_landing_pad, .-bti_check_no_landing_pad\n");

static void (*volatile no_pad)(void) = bti_check_no_landing_pad;

static int seal(const char *aes, const char *ghash, const uint8_t *key,
                const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16]) {
  static const uint8_t nonce[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                                    0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};
  gcm_key k;
  if (!gcm_key_init_with_backends(&k, key, 16, aes, ghash)) return 0;
  int ok = gcm_seal(&k, out, tag, 16, nonce, sizeof(nonce), in, len, in, 20);
  gcm_key_cleanup(&k);
  return ok;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "negative") == 0) {
    no_pad();
    printf("bti_check: an indirect call without a landing pad returned: "
           "BTI is not enforced\n");
    return 1;
  }

  /* McGrew-Viega test case 2: zero key, zero nonce, one zero block. */
  static const uint8_t tc2_ct[16] = {0x03, 0x88, 0xda, 0xce, 0x60, 0xb6,
                                     0xa3, 0x92, 0xf3, 0x28, 0xc2, 0xb9,
                                     0x71, 0xb2, 0xfe, 0x78};
  static const uint8_t tc2_tag[16] = {0xab, 0x6e, 0x47, 0xd4, 0x2c, 0xec,
                                      0x13, 0xbd, 0xf5, 0x3a, 0x67, 0xb2,
                                      0x12, 0x57, 0xbd, 0xdf};
  const uint8_t zero[16] = {0};
  uint8_t ct[16], tag[16];
  gcm_key k;
  if (!gcm_key_init_with_backends(&k, zero, 16, "ct", "ct64") ||
      !gcm_seal(&k, ct, tag, 16, zero, 12, zero, 16, NULL, 0) ||
      memcmp(ct, tc2_ct, 16) != 0 || memcmp(tag, tc2_tag, 16) != 0) {
    printf("bti_check: ct/ct64 fails test case 2\n");
    return 1;
  }
  gcm_key_cleanup(&k);

  /* 1000 bytes: the 8-block loops, the tails and a partial block. */
  uint8_t key[16], in[1000], want[1000], got[1000], want_tag[16];
  for (size_t i = 0; i < sizeof(key); i++) key[i] = (uint8_t)(17 * i + 3);
  for (size_t i = 0; i < sizeof(in); i++) in[i] = (uint8_t)(i * 7 + (i >> 8));
  if (!seal("ct", "ct64", key, in, sizeof(in), want, want_tag)) {
    printf("bti_check: ct/ct64 failed: %s\n", gcm_last_error_message());
    return 1;
  }
  static const char *const pairs[][2] = {{"armv8", "pmull"},
                                         {"armv8", "neon"},
                                         {"vpaes_neon", "neon"},
                                         {"vpaes_neon", "pmull"},
                                         {NULL, NULL}};
  int failures = 0, ran = 0;
  for (size_t p = 0; pairs[p][0] != NULL; p++) {
    const char *aes = pairs[p][0], *ghash = pairs[p][1];
    if (!gcm_backend_is_available(GCM_BACKEND_AES, aes) ||
        !gcm_backend_is_available(GCM_BACKEND_GHASH, ghash)) {
      printf("bti_check: %s/%s not usable here\n", aes, ghash);
      continue;
    }
    if (!seal(aes, ghash, key, in, sizeof(in), got, tag) ||
        memcmp(got, want, sizeof(got)) != 0 || memcmp(tag, want_tag, 16) != 0) {
      printf("bti_check: %s/%s disagrees with ct/ct64\n", aes, ghash);
      failures++;
    } else {
      printf("bti_check: %s/%s ok\n", aes, ghash);
    }
    ran++;
  }
  /* The defaults too (the dispatcher's choice, with the fused slot). */
  if (!seal(NULL, NULL, key, in, sizeof(in), got, tag) ||
      memcmp(got, want, sizeof(got)) != 0 || memcmp(tag, want_tag, 16) != 0) {
    printf("bti_check: the default pair disagrees with ct/ct64\n");
    failures++;
  }
  if (ran == 0) {
    printf("bti_check: no aarch64 backend is usable: nothing was checked\n");
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
