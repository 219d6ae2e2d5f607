/*
 * crypto/fused/fused_c.c: the portable fused loop (descriptor `gcmi_fused_c`,
 * name "c"), CTR and GHASH interleaved through the key's two descriptors.
 *
 * Algorithm. A run of n whole blocks is cut into pieces of FUSED_C_RUN
 * blocks (1 KiB). For each piece, sealing encrypts it with the AES
 * backend's ctr32 and at once hashes the ciphertext it just wrote with the
 * GHASH backend; opening hashes the ciphertext piece first, then decrypts
 * it (so out == in works). The counter is advanced by the piece length
 * modulo 2^32 between pieces, exactly as the contract's ctr + i. Each piece
 * is read by GHASH while it is still in the L1 cache, where the two-pass
 * path of a large message would let CTR run ahead over a whole 4 KiB run.
 *
 * It works with any (AES, GHASH) pair (`aes` and `ghash` are NULL), keeps
 * nothing per key (`init` is NULL), and is exactly as constant-time as the
 * pair it calls: it adds only public length arithmetic of its own. It is
 * here so the fused slot of the mode engine is exercised by every test on
 * every machine, and as the reference a real kernel is compared with.
 * Whether the automatic choice takes it depends on measurements; see
 * `named_only` below.
 */
/* block.h needs nothing above this layer (the C library and internal.h):
 * it is the one home of the counter arithmetic, shared with the mode
 * engine. */
#include "../gcm/block.h"
#include "fused.h"

/* Blocks per piece: 1 KiB of input and 1 KiB of output stay in L1 between
 * the CTR and the GHASH step, and a call to each backend covers enough
 * blocks to amortise its entry cost. */
#define FUSED_C_RUN 64

static int fused_c_usable(void) { return 1; }

static void fused_c_seal(const struct fused_keys *k, uint8_t *out,
                         const uint8_t *in, size_t blocks,
                         const uint8_t ctr[16], uint8_t Xi[16]) {
  uint8_t c[16];
  memcpy(c, ctr, 16);
  while (blocks > 0) {
    size_t n = blocks < FUSED_C_RUN ? blocks : FUSED_C_RUN;
    k->aes->ctr32(k->aes_key, out, in, n, c);
    k->ghash->update(Xi, k->ghash_key, out, n);
    block_ctr32_add(c, (uint32_t)n);
    in += n * 16;
    out += n * 16;
    blocks -= n;
  }
}

static void fused_c_open(const struct fused_keys *k, uint8_t *out,
                         const uint8_t *in, size_t blocks,
                         const uint8_t ctr[16], uint8_t Xi[16]) {
  uint8_t c[16];
  memcpy(c, ctr, 16);
  while (blocks > 0) {
    size_t n = blocks < FUSED_C_RUN ? blocks : FUSED_C_RUN;
    k->ghash->update(Xi, k->ghash_key, in, n);
    k->aes->ctr32(k->aes_key, out, in, n, c);
    block_ctr32_add(c, (uint32_t)n);
    in += n * 16;
    out += n * 16;
    blocks -= n;
  }
}

const struct fused_impl gcmi_fused_c = {
    .name = "c",
    .constant_time = 1,
    .requires = "none",
    .aes = NULL,
    .ghash = NULL,
    /* The widest AES batch: shorter runs are cheaper through the mode
     * engine's buffered key stream than as their own calls
     * (crypto/gcm/stream_plan.h). */
    .min_blocks = 16,
    .usable = fused_c_usable,
    .key_bytes = 0, /* nothing of its own */
    .init = NULL,
    .seal = fused_c_seal,
    .open = fused_c_open,
    /* Not measurably faster than the two passes (see the commit that
     * added it), so it runs only when named. */
    .named_only = 1,
};
