/*
 * test/first_use.c: sixteen threads make libgcm's very first calls at once.
 *
 * libgcm reads the CPU's capabilities and the LIBGCM_AES / LIBGCM_GHASH /
 * OPENSSL_ia32cap environment once per process, on the first key set-up,
 * behind pthread_once. That can only be exercised in a process that has not
 * called libgcm yet, hence this small program instead of a GoogleTest case.
 *
 * Sixteen threads wait at a barrier, then each calls gcm_key_init and
 * gcm_seal as its first libgcm call. Checks:
 *   - every thread got the same backends (the same descriptor names, the
 *     pair gcm_default_backends reports afterwards, and, when given on the
 *     command line, the expected names) and the same ciphertext and tag,
 *     which also equal a single-threaded seal done afterwards;
 *   - the environment was read exactly once: this program defines getenv
 *     and secure_getenv itself (libgcm is linked statically, so its calls
 *     land here, whichever of the two crypto/env.c uses on this C library)
 *     and counts the look-ups of each of libgcm's variables. One read of
 *     OPENSSL_ia32cap (x86 only; none when the environment names backends
 *     that need no CPU feature) means the CPU capabilities were
 *     initialised once; one read of each LIBGCM_* variable means the
 *     backend names were.
 * Under ThreadSanitizer (test/sanitizers.sh) the same run also proves that
 * the initialisation has no data race.
 *
 * Usage: first_use [expected-aes expected-ghash]
 */
#include <gcm/gcm.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define THREADS 16
#define MSG_LEN 100

/* ---- a counting getenv ------------------------------------------------ */

#if defined(_WIN32)
/* The C runtime's environment block (<stdlib.h>). */
#include <stdlib.h>
#define environ _environ
#else
extern char **environ;
#endif

static atomic_int reads_ia32cap, reads_aes, reads_ghash;

/* Replaces the C library's getenv for this program (and for the statically
 * linked libgcm): the same lookup in `environ`, plus a count for the three
 * variables libgcm reads. */
char *getenv(const char *name);
char *secure_getenv(const char *name);
char *getenv(const char *name) {
  if (strcmp(name, "OPENSSL_ia32cap") == 0) atomic_fetch_add(&reads_ia32cap, 1);
  if (strcmp(name, "LIBGCM_AES") == 0) atomic_fetch_add(&reads_aes, 1);
  if (strcmp(name, "LIBGCM_GHASH") == 0) atomic_fetch_add(&reads_ghash, 1);
  size_t n = strlen(name);
  for (char **e = environ; e != NULL && *e != NULL; e++) {
    if (strncmp(*e, name, n) == 0 && (*e)[n] == '=') return *e + n + 1;
  }
  return NULL;
}

/* crypto/env.c calls secure_getenv where the C library has it (glibc),
 * getenv elsewhere: both are counted. This program never runs privileged,
 * so the secure variant is the plain lookup. */
char *secure_getenv(const char *name) { return getenv(name); }

/* ---- the racing threads ------------------------------------------------ */

/* A one-shot barrier (pthread_barrier_t is missing on some systems). */
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t start_cond = PTHREAD_COND_INITIALIZER;
static int start_waiting;

static void wait_for_all(void) {
  pthread_mutex_lock(&start_lock);
  if (++start_waiting == THREADS) {
    pthread_cond_broadcast(&start_cond);
  } else {
    while (start_waiting < THREADS) pthread_cond_wait(&start_cond, &start_lock);
  }
  pthread_mutex_unlock(&start_lock);
}

struct result {
  int ok;
  const char *aes, *ghash;
  uint8_t ct[MSG_LEN];
  uint8_t tag[16];
};

static struct result results[THREADS];

static const uint8_t kKey[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae,
                                 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88,
                                 0x09, 0xcf, 0x4f, 0x3c};
static const uint8_t kNonce[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static uint8_t msg[MSG_LEN];

static void seal_once(struct result *r) {
  gcm_key key;
  r->ok = gcm_key_init(&key, kKey, sizeof(kKey)) &&
          gcm_seal(&key, r->ct, r->tag, 16, kNonce, 12, msg, MSG_LEN, NULL, 0);
  r->aes = gcm_key_aes_backend(&key);
  r->ghash = gcm_key_ghash_backend(&key);
  gcm_key_cleanup(&key);
}

static void *racer(void *arg) {
  wait_for_all();
  seal_once((struct result *)arg);
  return NULL;
}

static int failures;

static void fail(const char *what, int thread) {
  fprintf(stderr, "first_use: FAIL: %s (thread %d)\n", what, thread);
  failures++;
}

int main(int argc, char **argv) {
  if (argc != 1 && argc != 3) {
    fprintf(stderr, "usage: first_use [expected-aes expected-ghash]\n");
    return 2;
  }
  for (int i = 0; i < MSG_LEN; i++) msg[i] = (uint8_t)(7 * i + 1);

  pthread_t th[THREADS];
  for (int i = 0; i < THREADS; i++) {
    if (pthread_create(&th[i], NULL, racer, &results[i]) != 0) {
      fprintf(stderr, "first_use: pthread_create failed\n");
      return 1;
    }
  }
  for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);

  /* Reference: the same seal again, now that libgcm is initialised. */
  struct result ref;
  seal_once(&ref);
  const char *def_aes = NULL, *def_ghash = NULL;
  if (!ref.ok || !gcm_default_backends(&def_aes, &def_ghash)) {
    fprintf(stderr, "first_use: FAIL: reference seal: %s\n",
            gcm_last_error_message());
    return 1;
  }
  if (strcmp(ref.aes, def_aes) != 0 || strcmp(ref.ghash, def_ghash) != 0) {
    fail("key backends differ from gcm_default_backends", -1);
  }
  if (argc == 3 &&
      (strcmp(ref.aes, argv[1]) != 0 || strcmp(ref.ghash, argv[2]) != 0)) {
    fprintf(stderr, "first_use: expected %s/%s, got %s/%s\n", argv[1], argv[2],
            ref.aes, ref.ghash);
    fail("unexpected backends", -1);
  }

  for (int i = 0; i < THREADS; i++) {
    const struct result *r = &results[i];
    if (!r->ok) {
      fail("gcm_key_init or gcm_seal failed", i);
      continue;
    }
    /* Same descriptor, not merely the same name. */
    if (r->aes != ref.aes || r->ghash != ref.ghash) fail("other backends", i);
    if (memcmp(r->ct, ref.ct, MSG_LEN) != 0) fail("other ciphertext", i);
    if (memcmp(r->tag, ref.tag, 16) != 0) fail("other tag", i);
  }

  /* Exactly once. OPENSSL_ia32cap is only consulted on x86, and only when
   * some backend's usability is asked (naming portable backends in the
   * environment skips it), so there it is at most once. */
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
  const int max_ia32cap = 1, min_ia32cap = argc == 1 ? 1 : 0;
#else
  const int max_ia32cap = 0, min_ia32cap = 0;
#endif
  if (atomic_load(&reads_ia32cap) > max_ia32cap ||
      atomic_load(&reads_ia32cap) < min_ia32cap) {
    fprintf(stderr, "first_use: OPENSSL_ia32cap read %d times\n",
            atomic_load(&reads_ia32cap));
    fail("CPU capabilities not initialised exactly once", -1);
  }
  if (atomic_load(&reads_aes) != 1 || atomic_load(&reads_ghash) != 1) {
    fprintf(stderr, "first_use: LIBGCM_AES read %d times, LIBGCM_GHASH %d\n",
            atomic_load(&reads_aes), atomic_load(&reads_ghash));
    fail("backend environment not read exactly once", -1);
  }

  if (failures) return 1;
  printf("first_use: %d threads agree on %s/%s; environment read once\n",
         THREADS, ref.aes, ref.ghash);
  return 0;
}
