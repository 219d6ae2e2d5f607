/*
 * test/compat_program.c: a program written the way a BoringSSL user would
 * write it, using only <openssl/aead.h>. It is built with nothing but
 * libgcm's compat directory on the include path and linked with libgcm, so
 * it checks that the compatibility layer is a drop-in: the header is
 * self-sufficient and the names, types and behaviour match.
 *
 * Known answer: McGrew and Viega, "The Galois/Counter Mode of Operation",
 * test case 4 (AES-128, 96-bit IV, 60-byte plaintext, 20 bytes of AAD).
 * Then the randnonce AEAD (its output opened by the plain AEAD under the
 * appended nonce) and EVP_has_aes_hardware, as a BoringSSL program would
 * use them to pick a cipher.
 * Exits 0 when every check passes.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/aead.h>

#include "c_checks.h"

static const uint8_t kKey[16] = {0xfe, 0xff, 0xe9, 0x92, 0x86, 0x65,
                                 0x73, 0x1c, 0x6d, 0x6a, 0x8f, 0x94,
                                 0x67, 0x30, 0x83, 0x08};

static const uint8_t kNonce[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                                   0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};

static const uint8_t kPlaintext[60] = {
    0xd9, 0x31, 0x32, 0x25, 0xf8, 0x84, 0x06, 0xe5, 0xa5, 0x59, 0x09, 0xc5,
    0xaf, 0xf5, 0x26, 0x9a, 0x86, 0xa7, 0xa9, 0x53, 0x15, 0x34, 0xf7, 0xda,
    0x2e, 0x4c, 0x30, 0x3d, 0x8a, 0x31, 0x8a, 0x72, 0x1c, 0x3c, 0x0c, 0x95,
    0x95, 0x68, 0x09, 0x53, 0x2f, 0xcf, 0x0e, 0x24, 0x49, 0xa6, 0xb5, 0x25,
    0xb1, 0x6a, 0xed, 0xf5, 0xaa, 0x0d, 0xe6, 0x57, 0xba, 0x63, 0x7b, 0x39};

static const uint8_t kAad[20] = {0xfe, 0xed, 0xfa, 0xce, 0xde, 0xad, 0xbe,
                                 0xef, 0xfe, 0xed, 0xfa, 0xce, 0xde, 0xad,
                                 0xbe, 0xef, 0xab, 0xad, 0xda, 0xd2};

/* Ciphertext followed by the 16-byte tag, as EVP_AEAD_CTX_seal writes it. */
static const uint8_t kSealed[60 + 16] = {
    0x42, 0x83, 0x1e, 0xc2, 0x21, 0x77, 0x74, 0x24, 0x4b, 0x72, 0x21, 0xb7,
    0x84, 0xd0, 0xd4, 0x9c, 0xe3, 0xaa, 0x21, 0x2f, 0x2c, 0x02, 0xa4, 0xe0,
    0x35, 0xc1, 0x7e, 0x23, 0x29, 0xac, 0xa1, 0x2e, 0x21, 0xd5, 0x14, 0xb2,
    0x54, 0x66, 0x93, 0x1c, 0x7d, 0x8f, 0x6a, 0x5a, 0xac, 0x84, 0xaa, 0x05,
    0x1b, 0xa3, 0x0b, 0x39, 0x6a, 0x0a, 0xac, 0x97, 0x3d, 0x58, 0xe0, 0x91,
    /* tag */
    0x5b, 0xc9, 0x4f, 0xbc, 0x32, 0x21, 0xa5, 0xdb, 0x94, 0xfa, 0xe9, 0x5a,
    0xe7, 0x12, 0x1a, 0x47};

/* EVP_aead_aes_128_gcm_randnonce: no nonce in, ciphertext || tag || nonce
 * out, and that is plain AES-GCM under the nonce at the end. */
static void randnonce_checks(void) {
  const EVP_AEAD *aead = EVP_aead_aes_128_gcm_randnonce();
  uint8_t sealed[sizeof(kPlaintext) + EVP_AEAD_MAX_OVERHEAD];
  uint8_t again[sizeof(sealed)], opened[sizeof(sealed)];
  size_t sealed_len = 0, again_len = 0, opened_len = 0;
  const size_t overhead = EVP_AEAD_max_overhead(aead);

  check(EVP_AEAD_nonce_length(aead) == 0, "randnonce takes no nonce");
  check(overhead == 28 && EVP_AEAD_max_tag_len(aead) == 28,
        "randnonce tag is 16 + 12 bytes");

  EVP_AEAD_CTX *ctx = EVP_AEAD_CTX_new(aead, kKey, sizeof(kKey),
                                       EVP_AEAD_DEFAULT_TAG_LENGTH);
  check(ctx != NULL, "randnonce EVP_AEAD_CTX_new");
  if (ctx == NULL) return;
  check(EVP_AEAD_CTX_seal(ctx, sealed, &sealed_len, sizeof(sealed), NULL, 0,
                          kPlaintext, sizeof(kPlaintext), kAad, sizeof(kAad)),
        "randnonce seal");
  check(sealed_len == sizeof(kPlaintext) + overhead, "randnonce sealed length");
  check(EVP_AEAD_CTX_open(ctx, opened, &opened_len, sizeof(opened), NULL, 0,
                          sealed, sealed_len, kAad, sizeof(kAad)) &&
            opened_len == sizeof(kPlaintext) &&
            memcmp(opened, kPlaintext, sizeof(kPlaintext)) == 0,
        "randnonce open");

  /* The plain AEAD opens it, given the last 12 bytes as the nonce. */
  EVP_AEAD_CTX plain;
  EVP_AEAD_CTX_zero(&plain);
  check(EVP_AEAD_CTX_init(&plain, EVP_aead_aes_128_gcm(), kKey, sizeof(kKey),
                          EVP_AEAD_DEFAULT_TAG_LENGTH, NULL),
        "plain init");
  memset(opened, 0, sizeof(opened));
  check(EVP_AEAD_CTX_open(&plain, opened, &opened_len, sizeof(opened),
                          sealed + sealed_len - 12, 12, sealed,
                          sealed_len - 12, kAad, sizeof(kAad)) &&
            memcmp(opened, kPlaintext, sizeof(kPlaintext)) == 0,
        "plain AES-GCM opens a randnonce seal under the appended nonce");
  EVP_AEAD_CTX_cleanup(&plain);

  /* A second seal of the same message uses another nonce. */
  check(EVP_AEAD_CTX_seal(ctx, again, &again_len, sizeof(again), NULL, 0,
                          kPlaintext, sizeof(kPlaintext), kAad, sizeof(kAad)) &&
            again_len == sealed_len &&
            memcmp(again + again_len - 12, sealed + sealed_len - 12, 12) != 0,
        "two randnonce seals use different nonces");

  /* A changed nonce byte fails, leaving zeros; a nonce argument is refused. */
  sealed[sealed_len - 1] ^= 0x80;
  memset(opened, 0xaa, sizeof(opened));
  check(!EVP_AEAD_CTX_open(ctx, opened, &opened_len, sizeof(opened), NULL, 0,
                           sealed, sealed_len, kAad, sizeof(kAad)) &&
            opened_len == 0 && all_zero(opened, sizeof(opened)),
        "randnonce open of a changed nonce fails and zeroes the output");
  check(!EVP_AEAD_CTX_seal(ctx, again, &again_len, sizeof(again), kNonce,
                           sizeof(kNonce), kPlaintext, sizeof(kPlaintext),
                           NULL, 0) &&
            all_zero(again, sizeof(again)),
        "randnonce seal refuses a nonce argument");
  EVP_AEAD_CTX_free(ctx);
}

int main(void) {
  const EVP_AEAD *aead = EVP_aead_aes_128_gcm();
  EVP_AEAD_CTX ctx;
  uint8_t sealed[sizeof(kPlaintext) + EVP_AEAD_MAX_OVERHEAD];
  uint8_t opened[sizeof(kSealed)];
  size_t sealed_len, opened_len;

  check(EVP_AEAD_key_length(aead) == sizeof(kKey), "key length");
  check(EVP_AEAD_nonce_length(aead) == sizeof(kNonce), "nonce length");
  check(EVP_AEAD_max_overhead(aead) == 16, "max overhead");
  check(EVP_AEAD_max_tag_len(aead) == 16, "max tag length");

  EVP_AEAD_CTX_zero(&ctx);
  if (!EVP_AEAD_CTX_init(&ctx, aead, kKey, sizeof(kKey),
                         EVP_AEAD_DEFAULT_TAG_LENGTH, NULL)) {
    fprintf(stderr, "FAIL: EVP_AEAD_CTX_init\n");
    return 1;
  }
  check(EVP_AEAD_CTX_aead(&ctx) == aead, "EVP_AEAD_CTX_aead");

  /* Seal: ciphertext || tag must equal the published answer. */
  check(EVP_AEAD_CTX_seal(&ctx, sealed, &sealed_len, sizeof(sealed), kNonce,
                          sizeof(kNonce), kPlaintext, sizeof(kPlaintext),
                          kAad, sizeof(kAad)),
        "seal");
  check(sealed_len == sizeof(kSealed), "sealed length");
  check(memcmp(sealed, kSealed, sizeof(kSealed)) == 0, "sealed bytes");

  /* Open the published ciphertext and get the plaintext back. */
  check(EVP_AEAD_CTX_open(&ctx, opened, &opened_len, sizeof(opened), kNonce,
                          sizeof(kNonce), kSealed, sizeof(kSealed), kAad,
                          sizeof(kAad)),
        "open");
  check(opened_len == sizeof(kPlaintext), "opened length");
  check(memcmp(opened, kPlaintext, sizeof(kPlaintext)) == 0, "opened bytes");

  /* A flipped tag bit must be rejected, leaving only zeros behind. */
  uint8_t bad[sizeof(kSealed)];
  memcpy(bad, kSealed, sizeof(bad));
  bad[sizeof(bad) - 1] ^= 0x01;
  memset(opened, 0xaa, sizeof(opened));
  check(!EVP_AEAD_CTX_open(&ctx, opened, &opened_len, sizeof(opened), kNonce,
                           sizeof(kNonce), bad, sizeof(bad), kAad,
                           sizeof(kAad)),
        "open of a forged message fails");
  check(opened_len == 0, "failed open reports length 0");
  check(all_zero(opened, sizeof(opened)), "failed open zeroes the output");

  /* In place, as TLS stacks do it. */
  uint8_t buf[sizeof(kPlaintext) + 16];
  memcpy(buf, kPlaintext, sizeof(kPlaintext));
  check(EVP_AEAD_CTX_seal(&ctx, buf, &sealed_len, sizeof(buf), kNonce,
                          sizeof(kNonce), buf, sizeof(kPlaintext), kAad,
                          sizeof(kAad)) &&
            memcmp(buf, kSealed, sizeof(kSealed)) == 0,
        "in-place seal");
  check(EVP_AEAD_CTX_open(&ctx, buf, &opened_len, sizeof(buf), kNonce,
                          sizeof(kNonce), buf, sizeof(buf), kAad,
                          sizeof(kAad)) &&
            memcmp(buf, kPlaintext, sizeof(kPlaintext)) == 0,
        "in-place open");

  EVP_AEAD_CTX_cleanup(&ctx);
  check(EVP_AEAD_CTX_aead(&ctx) == NULL, "cleanup resets the context");

  /* The heap-allocated form. */
  EVP_AEAD_CTX *heap = EVP_AEAD_CTX_new(aead, kKey, sizeof(kKey),
                                        EVP_AEAD_DEFAULT_TAG_LENGTH);
  check(heap != NULL, "EVP_AEAD_CTX_new");
  if (heap != NULL) {
    check(EVP_AEAD_CTX_seal(heap, sealed, &sealed_len, sizeof(sealed), kNonce,
                            sizeof(kNonce), kPlaintext, sizeof(kPlaintext),
                            kAad, sizeof(kAad)) &&
              memcmp(sealed, kSealed, sizeof(kSealed)) == 0,
          "seal with EVP_AEAD_CTX_new");
    EVP_AEAD_CTX_free(heap);
  }

  randnonce_checks();

  /* What a TLS stack asks before preferring AES-GCM over ChaCha20-Poly1305. */
  int hw = EVP_has_aes_hardware();
  check(hw == 0 || hw == 1, "EVP_has_aes_hardware is 0 or 1");
  check(EVP_has_aes_hardware() == hw, "EVP_has_aes_hardware is stable");
  printf("EVP_has_aes_hardware: %d\n", hw);

  return checks_result("compat_program");
}
