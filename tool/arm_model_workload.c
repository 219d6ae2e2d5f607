/*
 * tool/arm_model_workload.c: the program tool/arm-model runs under qemu-user
 * to check its extraction of a kernel's loop against the instructions the
 * kernel really executes.
 *
 *   arm_model_workload AES GHASH FUSED KEY_BYTES seal|open MESSAGE_BYTES
 *
 * Sets up a key of KEY_BYTES (16, 24 or 32) on the named backends ("none"
 * as FUSED: the two passes) and seals, or opens, one message of
 * MESSAGE_BYTES with a 12-byte nonce and no AAD. The key and data are
 * fixed: only the path through the code matters, and the kernels' paths do
 * not depend on them. Exits 0 when the key was set up on the backends
 * named and the call returned what it must (open: a tag failure, the tag
 * being made up), else 1 with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcm/gcm.h>

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: %s AES GHASH FUSED KEY_BYTES seal|open MESSAGE_BYTES\n",
            argv[0]);
    return 1;
  }
  size_t key_len = strtoul(argv[4], NULL, 10);
  size_t len = strtoul(argv[6], NULL, 10);
  int seal = strcmp(argv[5], "seal") == 0;
  if (!seal && strcmp(argv[5], "open") != 0) {
    fprintf(stderr, "arm_model_workload: '%s' is neither seal nor open\n", argv[5]);
    return 1;
  }
  static const uint8_t raw[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
  static const uint8_t nonce[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};
  gcm_key key;
  if (key_len > sizeof(raw) ||
      !gcm_key_init_with_fused(&key, raw, key_len, argv[1], argv[2], argv[3])) {
    fprintf(stderr, "arm_model_workload: key set-up on %s/%s/%s failed: %s\n", argv[1],
            argv[2], argv[3], gcm_last_error_message());
    return 1;
  }
  uint8_t *in = calloc(len ? len : 1, 1), *out = malloc(len ? len : 1);
  uint8_t tag[16] = {0};
  if (in == NULL || out == NULL) return 1;
  int ok = seal ? gcm_seal(&key, out, tag, sizeof(tag), nonce, sizeof(nonce), in, len, NULL, 0)
                : !gcm_open(&key, out, nonce, sizeof(nonce), in, len, tag, sizeof(tag), NULL, 0);
  gcm_key_cleanup(&key);
  free(in);
  free(out);
  if (!ok) fprintf(stderr, "arm_model_workload: %s did not do what it must\n", argv[5]);
  return ok ? 0 : 1;
}
