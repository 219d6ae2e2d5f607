/*
 * crypto/aead/backends.c: the public view of the backend lists
 * (gcm_backend_count, gcm_backend_get, gcm_default_backends).
 *
 * Index order: every AES backend, best first, then every GHASH backend,
 * then every fused kernel, each kind best first, exactly as the dispatcher
 * tries them.
 */
#include <string.h>

#include <gcm/gcm.h>

#include "../error.h"
#include "../gcm/dispatch.h"

static size_t count_aes(void) {
  size_t n = 0;
  while (dispatch_aes_impls[n] != NULL) n++;
  return n;
}

static size_t count_ghash(void) {
  size_t n = 0;
  while (dispatch_ghash_impls[n] != NULL) n++;
  return n;
}

static size_t count_fused(void) {
  size_t n = 0;
  while (dispatch_fused_impls[n] != NULL) n++;
  return n;
}

size_t gcm_backend_count(void) {
  return count_aes() + count_ghash() + count_fused();
}

int gcm_backend_get(size_t index, gcm_backend_info *info) {
  if (info == NULL) return error_set(GCM_ERR_NULL_POINTER);
  const size_t n_aes = count_aes();
  if (index < n_aes) {
    const struct aes_impl *a = dispatch_aes_impls[index];
    info->kind = GCM_BACKEND_AES;
    info->name = a->name;
    info->requires = a->requires;
    info->usable = a->usable();
    info->constant_time = a->constant_time;
    return 1;
  }
  index -= n_aes;
  const size_t n_ghash = count_ghash();
  if (index < n_ghash) {
    const struct ghash_impl *g = dispatch_ghash_impls[index];
    info->kind = GCM_BACKEND_GHASH;
    info->name = g->name;
    info->requires = g->requires;
    info->usable = g->usable();
    info->constant_time = g->constant_time;
    return 1;
  }
  index -= n_ghash;
  if (index < count_fused()) {
    const struct fused_impl *f = dispatch_fused_impls[index];
    info->kind = GCM_BACKEND_FUSED;
    info->name = f->name;
    info->requires = f->requires;
    info->usable = f->usable();
    info->constant_time = f->constant_time;
    return 1;
  }
  return error_setf(GCM_ERR_INVALID_ARGUMENT, "backend index %zu out of range",
                    index + n_aes + n_ghash);
}

int gcm_backend_is_available(gcm_backend_kind kind, const char *name) {
  if (name == NULL) return 0;
  if (kind == GCM_BACKEND_AES) {
    const struct aes_impl *a = dispatch_find_aes(name);
    return a != NULL && a->usable();
  }
  if (kind == GCM_BACKEND_GHASH) {
    const struct ghash_impl *g = dispatch_find_ghash(name);
    return g != NULL && g->usable();
  }
  if (kind == GCM_BACKEND_FUSED) {
    const struct fused_impl *f = dispatch_find_fused(name);
    return f != NULL && f->usable();
  }
  return 0;
}

int gcm_fused_backend_pair(const char *fused_name, const char **aes_name,
                           const char **ghash_name) {
  if (aes_name != NULL) *aes_name = NULL;
  if (ghash_name != NULL) *ghash_name = NULL;
  if (fused_name == NULL) return error_set(GCM_ERR_NULL_POINTER);
  const struct fused_impl *f = dispatch_find_fused(fused_name);
  if (f == NULL) {
    return error_setf(GCM_ERR_BACKEND_UNKNOWN, "unknown fused backend '%s'",
                      fused_name);
  }
  if (aes_name != NULL && f->aes != NULL) *aes_name = f->aes->name;
  if (ghash_name != NULL && f->ghash != NULL) *ghash_name = f->ghash->name;
  return 1;
}

int gcm_default_backends(const char **aes_name, const char **ghash_name) {
  const struct aes_impl *a;
  const struct ghash_impl *g;
  if (!dispatch_choose(NULL, NULL, &a, &g)) return 0;
  if (aes_name != NULL) *aes_name = a->name;
  if (ghash_name != NULL) *ghash_name = g->name;
  return 1;
}

int gcm_default_fused_backend(const char **fused_name) {
  const struct aes_impl *a;
  const struct ghash_impl *g;
  const struct fused_impl *f;
  if (fused_name != NULL) *fused_name = NULL;
  if (!dispatch_choose(NULL, NULL, &a, &g) ||
      !dispatch_choose_fused(NULL, a, g, &f)) {
    return 0;
  }
  if (fused_name != NULL) *fused_name = f ? f->name : "none";
  return 1;
}

const char *gcm_version(void) { return LIBGCM_VERSION_STRING; }
