/*
 * crypto/dispatch/dispatch.c: which implementation a key uses.
 *
 * The three lists below are the one place that orders the backends, best
 * first. They hold every descriptor on every build, with no #if: a
 * descriptor answers for itself whether it can run here. Everything else
 * reads these lists through dispatch.h: the public backend list
 * (gcm_backend_count/get, crypto/dispatch/backends.c), `gcm-speed --list`, and
 * the test suites that run every usable backend.
 *
 * The shape of a backend (BearSSL's habit: the descriptor exists
 * everywhere and says when it is unusable):
 *   - one descriptor file, crypto/<aes|ghash|fused>/<kind>_<name>.c, that
 *     opens with the comment the project asks for (algorithm, register
 *     plan, why it is constant-time) and holds everything about the
 *     backend. An assembly backend picks its kernel symbols with one
 *       #if defined(LIBGCM_ASM_<ARCH>) #define <NAME>_KERNEL(op) ... #endif
 *     then declares them with the hook types of aes.h / ghash.h / fused.h
 *     (GCM_HIDDEN aes_ctr32_fn <NAME>_KERNEL(ctr32);) and sets
 *     <NAME>_BUILT to 1, or, where the build has no such kernels (another
 *     architecture, LIBGCM_NO_ASM), maps <NAME>_KERNEL(op) to NULL and
 *     <NAME>_BUILT to 0. It asserts the layouts its kernels rely on, and
 *     its `usable` hook is
 *       return <NAME>_BUILT && cpu_<arch>_has_<feature>() && ...;
 *     asking only the named queries of crypto/cpu/cpu.h. So a descriptor
 *     whose kernels are not in this build has NULL hooks and is never
 *     usable, and the dispatcher can tell "not built" from "this CPU
 *     lacks it". crypto/aes/aes_aesni.c is the example to copy.
 *   - hooks take outputs first, as the public API does: ctr32(s, out, in,
 *     blocks, ctr), encrypt_block(s, out, in), update(Xi, key, in,
 *     blocks), seal/open(k, out, in, ...). An assembly kernel takes its
 *     arguments in the hook's order, so the hook points at it directly
 *     (and the ABI tests reach it through the descriptor).
 *
 * Adding a backend:
 *   1. its descriptor file, as above (and its kernel, asm/<arch>/<n>.pl).
 *      The build picks both up by themselves: CMake globs the .c files of
 *      crypto/aes, crypto/ghash and crypto/fused, and the .pl files of
 *      asm/<arch>;
 *   2. one line, X(<descriptor>), in its kind's list below, at its place
 *      in the order; the line also declares the descriptor. (Add an
 *      extern line to aes.h / ghash.h / fused.h only if other code names
 *      the descriptor directly.)
 * The suites parameterised over the lists (vectors, cross-backend
 * agreement, streaming, fused) then test it wherever it is usable.
 *
 * Choosing: gcmi_dispatch_choose() takes, for each half, an explicit name if
 * the caller gave one, else the name in LIBGCM_AES / LIBGCM_GHASH if set
 * (crypto/dispatch/backend_env.c reads them once), else the first entry that
 * is usable on this CPU and constant-time. Naming a backend that does not
 * exist or cannot run here fails with the name and where it came from; it
 * is never replaced by another. The failure is described, not worded:
 * the API layer the user called writes the message.
 *
 * A variable-time entry (today GHASH 4bit) is taken from the environment
 * only in a build configured with LIBGCM_ALLOW_VARIABLE_TIME_ENV=ON;
 * otherwise naming it there fails (DISPATCH_VARIABLE_TIME_ENV) instead of
 * falling back. A production build must not be one exported variable away
 * from table lookups indexed by secret hash state in every key of the
 * process, and a silent fallback would hide that the request was refused.
 * Named by the caller (gcm_key_init_with_backends) it is always taken: the
 * tests and gcm-speed compare against it, and a program that names it in
 * code has chosen it.
 *
 * Fused kernels (crypto/fused/fused.h) are chosen afterwards, for the pair
 * already fixed: the explicit name, else LIBGCM_FUSED, else the first
 * entry of the fused list that fits the pair, runs here, is constant-time,
 * is not reserved for naming (named_only) and is preferred on this CPU
 * (its `preferred` hook, when it has one). "none" is the two-pass
 * path. A named kernel that does not fit the pair is refused like one the
 * CPU cannot run.
 */
#include <string.h>

#include "backend_env.h"
#include "dispatch.h"

/* The portable GHASH pair in the order the machine's word size prefers:
 * 64x64-bit products are emulated on 32-bit machines, where ct32 is
 * faster. */
#if defined(GCM_64BIT_WORDS)
#define GHASH_CT_PREFERRED gcmi_ghash_ct64
#define GHASH_CT_OTHER gcmi_ghash_ct32
#else
#define GHASH_CT_PREFERRED gcmi_ghash_ct32
#define GHASH_CT_OTHER gcmi_ghash_ct64
#endif

/* "neon" is one name with a descriptor per architecture (different
 * kernels and key layouts: crypto/ghash/ghash_neon_aarch64.c and
 * ghash_neon_armv4.c); the list holds the build's own, so the name means
 * one backend everywhere. */
#if defined(GCM_AARCH64)
#define GHASH_NEON gcmi_ghash_neon_aarch64
#else
#define GHASH_NEON gcmi_ghash_neon_armv4
#endif

/* The lists, best first. Each line names one descriptor; the line both
 * declares it and puts it in its place, so a new backend needs no other
 * declaration to be dispatched (aes.h, ghash.h and fused.h also declare
 * the descriptors other code names directly). */
#define AES_BACKENDS(X)                                                 \
  X(gcmi_aes_aesni)      /* x86, x86_64: AES-NI */                           \
  X(gcmi_aes_vpaes)      /* x86, x86_64: SSSE3 */                            \
  X(gcmi_aes_ct_sse2)    /* x86, x86_64: SSE2, bitsliced (C intrinsics) */   \
  X(gcmi_aes_armv8)      /* aarch64: Armv8 Cryptographic Extension (AES) */  \
  X(gcmi_aes_vpaes_neon) /* aarch64: NEON only, vector permutes with TBL */  \
  X(gcmi_aes_armv8_32)   /* 32-bit ARM: the Armv8 AES instructions */        \
  X(gcmi_aes_bsaes_neon) /* 32-bit ARM: NEON only, bitsliced, 8 blocks */    \
  X(gcmi_aes_ct)         /* portable */

#define GHASH_BACKENDS(X)                                                   \
  X(gcmi_ghash_vpclmul_avx2) /* x86_64: VPCLMULQDQ + AVX2 (+ VAES, fused pair) */ \
  X(gcmi_ghash_clmul)        /* x86, x86_64: PCLMULQDQ + SSSE3 */                \
  X(gcmi_ghash_ssse3)        /* x86, x86_64: SSSE3, without PCLMULQDQ */         \
  X(gcmi_ghash_sse2)         /* 32-bit x86: SSE2 only, PMULUDQ */                \
  X(gcmi_ghash_pmull)        /* aarch64: PMULL/PMULL2 */                         \
  X(gcmi_ghash_pmull32)      /* 32-bit ARM: VMULL.P64 */                         \
  X(GHASH_NEON)         /* aarch64, 32-bit ARM: NEON 8-bit polynomial */    \
  X(GHASH_CT_PREFERRED) /* portable */                                      \
  X(GHASH_CT_OTHER)     /* portable */                                      \
  X(gcmi_ghash_4bit)         /* portable, variable time: by name only */

/* Kernels for particular pairs go before the portable loop, which fits
 * every pair. */
#define FUSED_BACKENDS(X)                                                   \
  X(gcmi_fused_vaes_avx512) /* x86_64: VAES + VPCLMULQDQ on zmm, AVX-512,     */ \
                       /* (aesni, vpclmul_avx2)                         */ \
  X(gcmi_fused_vaes_avx2) /* x86_64: VAES + VPCLMULQDQ, (aesni, vpclmul_avx2) */ \
  X(gcmi_fused_aesni_avx) /* x86_64: AES-NI + PCLMULQDQ, AVX, (aesni, clmul) */  \
  X(gcmi_fused_aesni_sse) /* x86_64: the same without AVX (legacy SSE)       */  \
  X(gcmi_fused_armv8_pmull_eor3) /* aarch64: the same with EOR3 (FEAT_SHA3) */   \
  X(gcmi_fused_armv8_pmull) /* aarch64: AESE/AESMC + PMULL, (armv8, pmull) */    \
  X(gcmi_fused_c)         /* portable; named_only, see crypto/fused/fused_c.c */

#define DECLARE_AES(d) extern GCM_HIDDEN const struct aes_impl d;
#define DECLARE_GHASH(d) extern GCM_HIDDEN const struct ghash_impl d;
#define DECLARE_FUSED(d) extern GCM_HIDDEN const struct fused_impl d;
#define LIST_ENTRY(d) &d,
AES_BACKENDS(DECLARE_AES)
GHASH_BACKENDS(DECLARE_GHASH)
FUSED_BACKENDS(DECLARE_FUSED)

static const struct aes_impl *const aes_list[] = {
    AES_BACKENDS(LIST_ENTRY) NULL};
static const struct ghash_impl *const ghash_list[] = {
    GHASH_BACKENDS(LIST_ENTRY) NULL};
static const struct fused_impl *const fused_list[] = {
    FUSED_BACKENDS(LIST_ENTRY) NULL};

const struct aes_impl *gcmi_dispatch_aes_at(size_t i) {
  return i < sizeof(aes_list) / sizeof(aes_list[0]) ? aes_list[i] : NULL;
}

const struct ghash_impl *gcmi_dispatch_ghash_at(size_t i) {
  return i < sizeof(ghash_list) / sizeof(ghash_list[0]) ? ghash_list[i] : NULL;
}

const struct fused_impl *gcmi_dispatch_fused_at(size_t i) {
  return i < sizeof(fused_list) / sizeof(fused_list[0]) ? fused_list[i] : NULL;
}

int gcmi_dispatch_entry_at(enum dispatch_kind kind, size_t i,
                      struct dispatch_entry *e) {
  if (kind == DISPATCH_AES) {
    const struct aes_impl *a = gcmi_dispatch_aes_at(i);
    if (a == NULL) return 0;
    *e = (struct dispatch_entry){a->name, a->constant_time, a->requires,
                                 a->usable, a->ctr32 != NULL};
    return 1;
  }
  if (kind == DISPATCH_GHASH) {
    const struct ghash_impl *g = gcmi_dispatch_ghash_at(i);
    if (g == NULL) return 0;
    *e = (struct dispatch_entry){g->name, g->constant_time, g->requires,
                                 g->usable, g->update != NULL};
    return 1;
  }
  const struct fused_impl *f = gcmi_dispatch_fused_at(i);
  if (f == NULL) return 0;
  *e = (struct dispatch_entry){f->name, f->constant_time, f->requires,
                               f->usable, f->seal != NULL};
  return 1;
}

/* Backend names are lower-case letters, digits and '_' (one separator,
 * whatever the kind). Three AES names were spelled with '-' in libgcm 1.0;
 * those spellings stay accepted wherever a name is looked up (LIBGCM_AES
 * and the other variables, gcm_key_init_with_backends and every function
 * taking a name), as deprecated aliases of the new names: a lookup
 * resolves them to the descriptor, so everything that reports a name
 * (gcm_key_aes_backend, gcm_backend_get, error messages) says the new one.
 * docs/dispatch.md lists them; they may go in the next major version. */
struct deprecated_name {
  enum dispatch_kind kind;
  const char *old_name, *name;
};
static const struct deprecated_name deprecated_names[] = {
    {DISPATCH_AES, "armv8-32", "armv8_32"},
    {DISPATCH_AES, "bsaes-neon", "bsaes_neon"},
    {DISPATCH_AES, "vpaes-neon", "vpaes_neon"},
};

/* The current spelling of name: the new name of a deprecated alias of
 * `kind`, else name itself. */
static const char *current_name(enum dispatch_kind kind, const char *name) {
  for (size_t i = 0; i < sizeof(deprecated_names) / sizeof(deprecated_names[0]);
       i++) {
    const struct deprecated_name *d = &deprecated_names[i];
    if (d->kind == kind && strcmp(d->old_name, name) == 0) return d->name;
  }
  return name;
}

/* Index of the entry of `kind` called name (or a deprecated spelling of
 * it), or -1. */
static long find(enum dispatch_kind kind, const char *name) {
  struct dispatch_entry e;
  name = current_name(kind, name);
  for (size_t i = 0; gcmi_dispatch_entry_at(kind, i, &e); i++) {
    if (strcmp(e.name, name) == 0) return (long)i;
  }
  return -1;
}

const struct aes_impl *gcmi_dispatch_find_aes(const char *name) {
  long i = find(DISPATCH_AES, name);
  return i < 0 ? NULL : gcmi_dispatch_aes_at((size_t)i);
}

const struct ghash_impl *gcmi_dispatch_find_ghash(const char *name) {
  long i = find(DISPATCH_GHASH, name);
  return i < 0 ? NULL : gcmi_dispatch_ghash_at((size_t)i);
}

const struct fused_impl *gcmi_dispatch_find_fused(const char *name) {
  long i = find(DISPATCH_FUSED, name);
  return i < 0 ? NULL : gcmi_dispatch_fused_at((size_t)i);
}

int gcmi_dispatch_fused_fits(const struct fused_impl *f, const struct aes_impl *aes,
                        const struct ghash_impl *ghash) {
  return (f->aes == NULL || f->aes == aes) &&
         (f->ghash == NULL || f->ghash == ghash);
}

/* Starts a failure report for `kind` about `name`. */
static int fail(struct dispatch_failure *why,
                enum dispatch_failure_reason reason, enum dispatch_kind kind,
                const char *name, const char *env_var) {
  *why = (struct dispatch_failure){0};
  why->reason = reason;
  why->kind = kind;
  why->name = name;
  why->env_var = env_var;
  return 0;
}

/* The name a choice starts from: the caller's, else the environment's. 0
 * when the environment's value was too long to be any backend's name. */
static int requested(const char *name, const struct backend_env_choice *env,
                     enum dispatch_kind kind, const char **out,
                     const char **env_var, struct dispatch_failure *why) {
  *out = name;
  *env_var = NULL;
  if (name == NULL && env->set) {
    if (env->too_long) {
      fail(why, DISPATCH_UNKNOWN, kind, env->name, env->var);
      why->name_truncated = 1;
      return 0;
    }
    *out = env->name;
    *env_var = env->var;
  }
  return 1;
}

#if defined(LIBGCM_ALLOW_VARIABLE_TIME_ENV)
static const int variable_time_env_allowed = 1;
#else
static const int variable_time_env_allowed = 0;
#endif

/* 0 (with *why filled) when a name from environment variable env_var
 * (NULL: the caller's own name) picks a variable-time entry in a build
 * that does not allow that. */
static int env_may_choose(int constant_time, enum dispatch_kind kind,
                          const char *name, const char *env_var,
                          struct dispatch_failure *why) {
  if (env_var == NULL || constant_time || variable_time_env_allowed) return 1;
  return fail(why, DISPATCH_VARIABLE_TIME_ENV, kind, name, env_var);
}

/* Picks the index of one kind's implementation: the explicit name, else
 * the environment's, else the first usable constant-time entry. */
static int choose(enum dispatch_kind kind,
                  const struct backend_env_choice *env, const char *name,
                  size_t *index, struct dispatch_failure *why) {
  const char *env_var;
  if (!requested(name, env, kind, &name, &env_var, why)) return 0;
  struct dispatch_entry e;
  if (name == NULL) {
    for (size_t i = 0; gcmi_dispatch_entry_at(kind, i, &e); i++) {
      if (e.constant_time && e.usable()) {
        *index = i;
        return 1;
      }
    }
    return fail(why, DISPATCH_NONE_RUNS, kind, NULL, NULL);
  }
  long i = find(kind, name);
  if (i < 0) return fail(why, DISPATCH_UNKNOWN, kind, name, env_var);
  gcmi_dispatch_entry_at(kind, (size_t)i, &e);
  name = e.name; /* the current spelling, in any message below */
  if (!env_may_choose(e.constant_time, kind, name, env_var, why)) return 0;
  if (!e.usable()) {
    fail(why, e.built ? DISPATCH_UNUSABLE : DISPATCH_NOT_BUILT, kind, name,
         env_var);
    why->requires = e.requires;
    return 0;
  }
  *index = (size_t)i;
  return 1;
}

int gcmi_dispatch_choose(const char *aes_name, const char *ghash_name,
                    const struct aes_impl **aes,
                    const struct ghash_impl **ghash,
                    struct dispatch_failure *why) {
  size_t a = 0, g = 0; /* set by choose() whenever it returns 1 */
  const struct gcmi_backend_env *env = gcmi_backend_env();
  if (!choose(DISPATCH_AES, &env->aes, aes_name, &a, why) ||
      !choose(DISPATCH_GHASH, &env->ghash, ghash_name, &g, why)) {
    return 0;
  }
  *aes = gcmi_dispatch_aes_at(a);
  *ghash = gcmi_dispatch_ghash_at(g);
  return 1;
}

int gcmi_dispatch_choose_fused(const char *fused_name, const struct aes_impl *aes,
                          const struct ghash_impl *ghash,
                          const struct fused_impl **fused,
                          struct dispatch_failure *why) {
  const char *env_var;
  *fused = NULL;
  if (!requested(fused_name, &gcmi_backend_env()->fused, DISPATCH_FUSED,
                 &fused_name, &env_var, why)) {
    return 0;
  }
  if (fused_name == NULL) {
    const struct fused_impl *f;
    for (size_t i = 0; (f = gcmi_dispatch_fused_at(i)) != NULL; i++) {
      if (!f->named_only && f->constant_time &&
          gcmi_dispatch_fused_fits(f, aes, ghash) && f->usable() &&
          (f->preferred == NULL || f->preferred())) {
        *fused = f;
        break;
      }
    }
    return 1;
  }
  if (strcmp(fused_name, "none") == 0) return 1;
  const struct fused_impl *f = gcmi_dispatch_find_fused(fused_name);
  if (f == NULL) {
    return fail(why, DISPATCH_UNKNOWN, DISPATCH_FUSED, fused_name, env_var);
  }
  fused_name = f->name; /* the current spelling, in any message below */
  if (!env_may_choose(f->constant_time, DISPATCH_FUSED, fused_name, env_var,
                      why)) {
    return 0;
  }
  if (!gcmi_dispatch_fused_fits(f, aes, ghash)) {
    fail(why, DISPATCH_WRONG_PAIR, DISPATCH_FUSED, fused_name, env_var);
    why->fused_aes = f->aes ? f->aes->name : NULL;
    why->fused_ghash = f->ghash ? f->ghash->name : NULL;
    why->key_aes = aes->name;
    why->key_ghash = ghash->name;
    return 0;
  }
  if (!f->usable()) {
    fail(why, f->seal != NULL ? DISPATCH_UNUSABLE : DISPATCH_NOT_BUILT,
         DISPATCH_FUSED, fused_name, env_var);
    why->requires = f->requires;
    return 0;
  }
  *fused = f;
  return 1;
}
