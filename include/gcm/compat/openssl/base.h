/*
 * libgcm compatibility layer: the small part of BoringSSL's <openssl/base.h>
 * that <openssl/aead.h> relies on.
 *
 * A program written for BoringSSL's AEAD interface expects base.h to bring
 * in size_t and the fixed-width integer types, the OPENSSL_EXPORT marker,
 * and forward declarations of the types the AEAD functions take. This file
 * provides exactly that and nothing more: there is no ERR_* queue, no
 * OPENSSL_malloc, and no other BoringSSL type. libgcm reports the reason for
 * a failure through gcm_last_error() instead (see <openssl/aead.h>).
 *
 * OPENSSL_IS_BORINGSSL is deliberately not defined: code that tests it
 * usually goes on to use much more of BoringSSL than libgcm provides.
 * LIBGCM_BORINGSSL_AEAD_COMPAT is defined instead, for programs that want to
 * know they are building against this layer.
 */
#ifndef OPENSSL_HEADER_BASE_H
#define OPENSSL_HEADER_BASE_H

#include <stddef.h>
#include <stdint.h>

#define LIBGCM_BORINGSSL_AEAD_COMPAT 1

/* Marks the functions libgcm exports. It follows GCM_EXPORT in
 * <gcm/gcm.h>: default visibility with GCC and Clang, dllexport while
 * libgcm's own DLL is being built. */
#if defined(_WIN32) && defined(LIBGCM_SHARED_BUILD)
#define OPENSSL_EXPORT __declspec(dllexport)
#elif defined(_WIN32)
/* A program using libgcm.dll calls through the import library's stubs
 * and a static libgcm.a needs no marking, so one header serves both. */
#define OPENSSL_EXPORT
#elif defined(__GNUC__) || defined(__clang__)
#define OPENSSL_EXPORT __attribute__((visibility("default")))
#else
#define OPENSSL_EXPORT
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* Forward declarations, under the same struct tags BoringSSL uses, so that
 * code which itself forward-declares these types still compiles. */
typedef struct engine_st ENGINE;
typedef struct evp_aead_st EVP_AEAD;
typedef struct evp_aead_ctx_st EVP_AEAD_CTX;
typedef struct crypto_ivec_st CRYPTO_IVEC;
typedef struct crypto_iovec_st CRYPTO_IOVEC;

#if defined(__cplusplus)
} /* extern "C" */
#elif !defined(BORINGSSL_NO_CXX)
#define BORINGSSL_NO_CXX
#endif

#if !defined(BORINGSSL_NO_CXX)
/* C++ callers get bssl::UniquePtr<T>, a std::unique_ptr whose deleter calls
 * the matching *_free function. Each header that defines a freeable type
 * supplies the deleter for it (aead.h does so for EVP_AEAD_CTX). */
extern "C++" {
#include <memory>

namespace bssl {
namespace internal {
template <typename T>
struct Deleter;
}  // namespace internal

template <typename T>
using UniquePtr = std::unique_ptr<T, internal::Deleter<T>>;
}  // namespace bssl
}  /* extern "C++" */
#endif

#endif /* OPENSSL_HEADER_BASE_H */
