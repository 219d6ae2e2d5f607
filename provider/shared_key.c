/*
 * provider/shared_key.c: the expanded key of a cipher context, in a block
 * of its own shared by the context and its duplicates, for both ciphers
 * (an AES-GCM gcm_key or an AES-GCM-SIV gcm_siv_key).
 *
 * Why shared and kept:
 *  - EVP callers (openssl speed -aead, programs that pass the key again
 *    with each new IV) re-initialise with the same key. The block keeps
 *    the raw key beside the expansion, and setting the same key again
 *    (same length, same bytes) keeps the expansion instead of redoing it.
 *  - A duplicated context (dupctx) takes a reference instead of a copy;
 *    re-keying a block that is shared expands into a fresh block, so a
 *    duplicate (or an AES-GCM stream copied mid-message) keeps pointing
 *    at a live key. The last reference wipes the key and the raw key.
 *
 * Memory: the expanded key is `mem`, exactly the bytes gcm_key_size_for
 * (or gcm_siv_key_size_for) reports for the default backends, at the end
 * of a plain malloc block. A key works at any address (<gcm/gcm.h>,
 * "Alignment": libgcm places its data at an aligned offset inside the
 * memory it is given, and the size counts that), so no bytes are spent
 * aligning it. The default backends are fixed for the process (the
 * environment is read once), so a block, once made, always has the size
 * its kind needs.
 *
 * Constant time: same_key reads every byte of both keys whatever they
 * hold; only its one-bit answer (whether the caller passed the same key
 * again, which the caller knows) decides a branch.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gcm/gcm.h>

#include "provider.h"

struct libgcm_shared_key {
  _Atomic unsigned refs;
  enum libgcm_key_kind kind;
  size_t raw_len;
  uint8_t raw[32];
  unsigned char mem[];
};

/* The memory a key of `kind` on the default backends takes, or 0 (libgcm
 * says why). */
static size_t size_for(enum libgcm_key_kind kind) {
  return kind == LIBGCM_KEY_GCM ? gcm_key_size_for(NULL, NULL, NULL)
                                : gcm_siv_key_size_for(NULL, NULL, NULL);
}

/* Expands `key` into the block's memory of `size` bytes: 1, or 0 with the
 * memory left zeroed (libgcm says why). */
static int init_sized(struct libgcm_shared_key *sk, size_t size,
                      const uint8_t *key, size_t keylen) {
  return sk->kind == LIBGCM_KEY_GCM
             ? gcm_key_init_sized((gcm_key *)(void *)sk->mem, size, key,
                                  keylen, NULL, NULL, NULL)
             : gcm_siv_key_init_sized((gcm_siv_key *)(void *)sk->mem, size,
                                      key, keylen, NULL, NULL, NULL);
}

/* Wipes the key in the block (the bytes it took). */
static void cleanup(struct libgcm_shared_key *sk) {
  if (sk->kind == LIBGCM_KEY_GCM) {
    gcm_key_cleanup((gcm_key *)(void *)sk->mem);
  } else {
    gcm_siv_key_cleanup((gcm_siv_key *)(void *)sk->mem);
  }
  libgcm_wipe(sk->raw, sizeof(sk->raw));
  sk->raw_len = 0;
}

static int same_key(const struct libgcm_shared_key *sk, const uint8_t *key,
                    size_t keylen) {
  uint8_t d = 0;
  if (sk->raw_len != keylen) return 0;
  for (size_t i = 0; i < keylen; i++) d |= (uint8_t)(sk->raw[i] ^ key[i]);
  return d == 0;
}

void libgcm_shared_key_release(struct libgcm_shared_key *sk) {
  if (sk == NULL) return;
  if (atomic_fetch_sub(&sk->refs, 1) == 1) {
    cleanup(sk);
    free(sk);
  }
}

struct libgcm_shared_key *libgcm_shared_key_ref(
    struct libgcm_shared_key *sk) {
  if (sk != NULL) atomic_fetch_add(&sk->refs, 1);
  return sk;
}

int libgcm_shared_key_set(const struct libgcm_provctx *pc,
                          enum libgcm_key_kind kind,
                          struct libgcm_shared_key **slot, const uint8_t *key,
                          size_t keylen) {
  struct libgcm_shared_key *sk = *slot;
  if (keylen > sizeof(sk->raw)) {
    LIBGCM_ERR(pc, LIBGCM_R_BAD_KEY_LENGTH, "a %zu-byte key", keylen);
    return 0;
  }
  if (sk != NULL && same_key(sk, key, keylen)) return 1;
  const size_t size = size_for(kind);
  if (size == 0) {
    LIBGCM_ERR(pc, LIBGCM_R_KEY_SETUP_FAILED, "%s", gcm_last_error_message());
    return 0;
  }
  if (sk != NULL && atomic_load(&sk->refs) == 1) {
    /* Ours alone: expand the new key over the old one. */
    cleanup(sk);
  } else {
    libgcm_shared_key_release(sk);
    *slot = NULL;
    sk = malloc(offsetof(struct libgcm_shared_key, mem) + size);
    if (sk == NULL) {
      LIBGCM_ERR(pc, LIBGCM_R_OUT_OF_MEMORY, "expanded key");
      return 0;
    }
    memset(sk, 0, offsetof(struct libgcm_shared_key, mem) + size);
    atomic_init(&sk->refs, 1);
    sk->kind = kind;
    *slot = sk;
  }
  if (!init_sized(sk, size, key, keylen)) {
    LIBGCM_ERR(pc, LIBGCM_R_KEY_SETUP_FAILED, "%s", gcm_last_error_message());
    libgcm_shared_key_release(sk);
    *slot = NULL;
    return 0;
  }
  memcpy(sk->raw, key, keylen);
  sk->raw_len = keylen;
  return 1;
}

const gcm_key *libgcm_shared_gcm_key(const struct libgcm_shared_key *sk) {
  return (const gcm_key *)(const void *)sk->mem;
}

const gcm_siv_key *libgcm_shared_siv_key(const struct libgcm_shared_key *sk) {
  return (const gcm_siv_key *)(const void *)sk->mem;
}
