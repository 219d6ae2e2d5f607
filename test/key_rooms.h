// test/key_rooms.h: room for one backend's key outside a gcm key, for the
// suites that call the AES, GHASH and fused hooks directly. The hooks take
// pointers to opaque key types, each backend keeping its own key_bytes of
// it (crypto/aes/aes.h, crypto/ghash/ghash.h, crypto/fused/fused.h); a room
// holds the most any backend of the kind keeps, 16-byte aligned, as a
// key inside a gcm key is, and get() is the pointer the hooks take.
#ifndef LIBGCM_TEST_KEY_ROOMS_H
#define LIBGCM_TEST_KEY_ROOMS_H

#include <cstdint>

extern "C" {
#include "../crypto/aes/aes.h"
#include "../crypto/fused/fused.h"
#include "../crypto/ghash/ghash.h"
}

struct AesKeyRoom {
  aes_schedule_room room;
  aes_schedule *get() { return aes_schedule_in(&room); }
  const aes_schedule *get() const {
    return reinterpret_cast<const aes_schedule *>(room.bytes);
  }
};

struct GhashKeyRoom {
  ghash_key_room room;
  ghash_key *get() { return ghash_key_in(&room); }
  const ghash_key *get() const {
    return reinterpret_cast<const ghash_key *>(room.bytes);
  }
};

struct FusedKeyRoom {
  alignas(16) uint8_t bytes[FUSED_KEY_MAX_BYTES];
  fused_key *get() { return reinterpret_cast<fused_key *>(bytes); }
  const fused_key *get() const {
    return reinterpret_cast<const fused_key *>(bytes);
  }
};

#endif  // LIBGCM_TEST_KEY_ROOMS_H
