/*
 * crypto/gcm/stream_plan.c: a message's stream policy from the key's
 * descriptors (struct stream_policy; the planner's contract is at the top
 * of crypto/gcm/stream_plan.h).
 */
#include "stream_plan.h"

#include "engine.h"

/* A batch fits the policy's batch and no power-of-two batch's mask is the
 * marker. */
_Static_assert(GCM_KS_MAX_BLOCKS < GCM_BATCH_NOT_POW2,
               "a batch must fit stream_policy's batch and batch_mask");
_Static_assert(FUSED_LAG_MAX_BLOCKS <= 255,
               "a lag group fits stream_policy's lag_blocks");

void gcm_stream_policy_init(struct stream_policy *p,
                            const struct aes_impl *aes,
                            const struct fused_impl *fused, int encrypt,
                            int one_shot) {
  const unsigned batch = gcm_batch_blocks(aes);
  unsigned run_min, tail_min = 0;
  memset(p, 0, sizeof(*p));
  if (fused != NULL && fused->stream_run_min != 0) {
    /* A kernel cheaper per call than a refill declares its own sizes,
     * measured with gcm-ab --chunk (crypto/fused/fused.h). */
    run_min = fused->stream_run_min;
    if (run_min < fused->min_blocks) run_min = fused->min_blocks;
    p->uncut = 1;
    tail_min = fused->stream_tail_min;
    if (tail_min != 0 && tail_min < run_min) tail_min = run_min;
  } else {
    /* Otherwise a kernel call costs what a refill does: at least a batch,
     * the kernel's shortest run and GCM_STREAM_RUN_MIN. */
    run_min = batch;
    if (fused != NULL && fused->min_blocks > run_min)
      run_min = fused->min_blocks;
    if (run_min < GCM_STREAM_RUN_MIN) run_min = GCM_STREAM_RUN_MIN;
  }
  /* Every count fits its byte: the descriptors keep their counts at or
   * below STREAM_POLICY_MAX_RUN_MIN (stream_plan.h), and the batch is at
   * most GCM_KS_MAX_BLOCKS. */
  p->run_min = (uint8_t)run_min;
  p->tail_min = (uint8_t)tail_min;
  /* With AES instructions a block of key stream costs less than the calls
   * that a chunk split around the buffer makes, so only chunks of at least
   * run_min + batch blocks use the buffer up, which after using up less
   * than a batch still go direct: 400-byte chunks then ran 1.25x faster on
   * the aesni/clmul pair, while 272 to 350-byte chunks measured 2-8%
   * slower than with a full refill that serves most of the next chunk.
   * With AES in software, giving a tail's unused key stream back on every
   * chunk ran 400-byte chunks (a run of 24 blocks and one refilled block)
   * at 58% of one-shot speed on vpaes. */
  p->use_up_min = (uint8_t)(aes->hardware_rounds ? run_min + batch : run_min);
  p->batch = (uint8_t)batch;
  p->batch_mask = (batch & (batch - 1)) == 0 ? (uint8_t)(batch - 1)
                                             : (uint8_t)GCM_BATCH_NOT_POW2;
  p->one_shot = one_shot != 0;
  if (fused != NULL) {
    p->fused = 1;
    p->fused_min = (uint8_t)fused->min_blocks;
    if (encrypt && !one_shot && fused->seal_lagged != NULL)
      p->lag_blocks = (uint8_t)fused->lag_blocks;
  }
}
