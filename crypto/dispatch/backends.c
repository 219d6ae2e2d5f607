/*
 * crypto/dispatch/backends.c: the public view of the backend lists
 * (gcm_backend_count, gcm_backend_get, gcm_backend_is_available,
 * gcm_fused_backend_pair, gcm_default_backends, gcm_default_fused_backend).
 *
 * Index order: every AES backend, best first, then every GHASH backend,
 * then every fused kernel, each kind best first, exactly as the dispatcher
 * tries them (read through gcmi_dispatch_entry_at). Also the messages of failed
 * backend choices, for every public function that chooses
 * (gcmi_backend_choice_error).
 */
#include <string.h>

#include <gcm/gcm.h>

#include "../cpu/cpu.h"
#include "../error.h"
#include "backends.h"

static const char *const kind_word[] = {"AES", "GHASH", "fused"};

int gcmi_backend_choice_error(const struct dispatch_failure *why,
                         const char *api) {
  const char *kind = kind_word[why->kind];
  const char *source = why->env_var != NULL ? why->env_var : api;
  switch (why->reason) {
    case DISPATCH_UNKNOWN:
      return gcmi_error_setf(GCM_ERR_BACKEND_UNKNOWN,
                        "%s names an unknown %s backend '%s%s'", source, kind,
                        why->name, why->name_truncated ? "..." : "");
    case DISPATCH_NOT_BUILT:
      return gcmi_error_setf(GCM_ERR_BACKEND_UNUSABLE,
                        "%s names %s backend '%s', which needs %s; this "
                        "build of libgcm does not include its kernels",
                        source, kind, why->name, why->requires);
    case DISPATCH_UNUSABLE: {
      /* The CPU's answer is after the architecture's test mask, if any. */
      const char *mask = gcmi_cpu_mask_variable();
      return gcmi_error_setf(GCM_ERR_BACKEND_UNUSABLE,
                        "%s names %s backend '%s', which needs %s; this CPU "
                        "%s%s%slacks it",
                        source, kind, why->name, why->requires,
                        mask ? "(after " : "", mask ? mask : "",
                        mask ? ") " : "");
    }
    case DISPATCH_NONE_RUNS:
      return gcmi_error_setf(GCM_ERR_BACKEND_UNUSABLE,
                        "no constant-time %s backend runs on this CPU", kind);
    case DISPATCH_WRONG_PAIR:
      return gcmi_error_setf(GCM_ERR_BACKEND_UNUSABLE,
                        "%s names fused backend '%s', which works only with "
                        "AES %s and GHASH %s; this key uses %s and %s",
                        source, why->name,
                        why->fused_aes ? why->fused_aes : "(any)",
                        why->fused_ghash ? why->fused_ghash : "(any)",
                        why->key_aes, why->key_ghash);
    case DISPATCH_VARIABLE_TIME_ENV:
      /* Under 256 bytes (the message buffer) for every kind and name. */
      return gcmi_error_setf(GCM_ERR_BACKEND_UNUSABLE,
                        "%s names %s backend '%s', which is variable-time: "
                        "refused from the environment unless libgcm is built "
                        "with -DLIBGCM_ALLOW_VARIABLE_TIME_ENV=ON (naming it "
                        "in a call works)",
                        source, kind, why->name);
  }
  return gcmi_error_setf(GCM_ERR_BACKEND_UNKNOWN, "%s: no backend chosen", api);
}

static size_t count(enum dispatch_kind kind) {
  struct dispatch_entry e;
  size_t n = 0;
  while (gcmi_dispatch_entry_at(kind, n, &e)) n++;
  return n;
}

static const enum dispatch_kind kinds[] = {DISPATCH_AES, DISPATCH_GHASH,
                                           DISPATCH_FUSED};
static const gcm_backend_kind public_kind[] = {
    GCM_BACKEND_AES, GCM_BACKEND_GHASH, GCM_BACKEND_FUSED};

size_t gcm_backend_count(void) {
  return count(DISPATCH_AES) + count(DISPATCH_GHASH) + count(DISPATCH_FUSED);
}

int gcm_backend_get(size_t index, gcm_backend_info *info) {
  if (info == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  size_t i = index;
  for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
    struct dispatch_entry e;
    if (gcmi_dispatch_entry_at(kinds[k], i, &e)) {
      info->kind = public_kind[k];
      info->name = e.name;
      info->requires = e.requires;
      info->usable = e.usable();
      info->constant_time = e.constant_time;
      return 1;
    }
    i -= count(kinds[k]);
  }
  return gcmi_error_setf(GCM_ERR_INVALID_ARGUMENT, "backend index %zu out of range",
                    index);
}

int gcm_backend_is_available(gcm_backend_kind kind, const char *name) {
  if (name == NULL) return 0;
  if (kind == GCM_BACKEND_AES) {
    const struct aes_impl *a = gcmi_dispatch_find_aes(name);
    return a != NULL && a->usable();
  }
  if (kind == GCM_BACKEND_GHASH) {
    const struct ghash_impl *g = gcmi_dispatch_find_ghash(name);
    return g != NULL && g->usable();
  }
  if (kind == GCM_BACKEND_FUSED) {
    const struct fused_impl *f = gcmi_dispatch_find_fused(name);
    return f != NULL && f->usable();
  }
  return 0;
}

int gcm_fused_backend_pair(const char *fused_name, const char **aes_name,
                           const char **ghash_name) {
  if (aes_name != NULL) *aes_name = NULL;
  if (ghash_name != NULL) *ghash_name = NULL;
  if (fused_name == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  const struct fused_impl *f = gcmi_dispatch_find_fused(fused_name);
  if (f == NULL) {
    return gcmi_error_setf(GCM_ERR_BACKEND_UNKNOWN, "unknown fused backend '%s'",
                      fused_name);
  }
  if (aes_name != NULL && f->aes != NULL) *aes_name = f->aes->name;
  if (ghash_name != NULL && f->ghash != NULL) *ghash_name = f->ghash->name;
  return 1;
}

int gcm_default_backends(const char **aes_name, const char **ghash_name) {
  const struct aes_impl *a;
  const struct ghash_impl *g;
  struct dispatch_failure why;
  if (!gcmi_dispatch_choose(NULL, NULL, &a, &g, &why)) {
    return gcmi_backend_choice_error(&why, "gcm_default_backends");
  }
  if (aes_name != NULL) *aes_name = a->name;
  if (ghash_name != NULL) *ghash_name = g->name;
  return 1;
}

int gcm_default_fused_backend(const char **fused_name) {
  const struct aes_impl *a;
  const struct ghash_impl *g;
  const struct fused_impl *f;
  if (fused_name != NULL) *fused_name = NULL;
  struct dispatch_failure why;
  if (!gcmi_dispatch_choose(NULL, NULL, &a, &g, &why) ||
      !gcmi_dispatch_choose_fused(NULL, a, g, &f, &why)) {
    return gcmi_backend_choice_error(&why, "gcm_default_fused_backend");
  }
  if (fused_name != NULL) *fused_name = f ? f->name : "none";
  return 1;
}
