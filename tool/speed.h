/*
 * tool/speed.h: what the files of gcm-speed share.
 *
 * gcm-speed is one program in several files, one per role (gcm_speed.c has
 * the map): the constants and records every part uses, and each part's
 * entry points. Nothing here is part of libgcm's API.
 */
#ifndef LIBGCM_TOOL_SPEED_H
#define LIBGCM_TOOL_SPEED_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <gcm/gcm.h>

/* ---- constants and the algorithms (speed_common.c) ---------------------- */

#define AAD_LEN 13 /* bssl speed's kTLSADLen for AES-GCM */
#define MAX_SIZES 64

struct algo {
  const char *name;
  size_t key_len;
  int siv; /* 1: AES-GCM-SIV (RFC 8452): gcm_siv_seal / gcm_siv_open, one
            * whole message per call (no --chunk, --fused or --openssl) */
};

#define NUM_ALGOS 5
extern const struct algo kAlgos[NUM_ALGOS];

/* A key for any algorithm of kAlgos: init_key sets up the one the
 * algorithm uses, a gcm_key for AES-GCM or a gcm_siv_key for AES-GCM-SIV. */
struct speed_key {
  gcm_key gcm;
  gcm_siv_key siv;
};

enum direction { DIR_SEAL = 1, DIR_OPEN = 2 };
enum impl { IMPL_LIBGCM = 0, IMPL_OPENSSL = 1 };

/* The program name for messages: argv[0] without its directory. */
extern const char *g_prog;
/* Set by main from the options before anything is measured. --chunk: 0 for
 * one-shot calls, else the streaming update size; --fused: the kernel
 * asked for, NULL for the default. */
extern size_t g_chunk;
extern const char *g_fused;

/* Prints "gcm-speed: <message>" to stderr and exits with status 1. */
#if defined(__MINGW32__)
/* C99 formats (%zu): the tools are built with MinGW's own stdio there
 * (__USE_MINGW_ANSI_STDIO, tool/CMakeLists.txt). */
#define SPEED_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#elif defined(__GNUC__) || defined(__clang__)
#define SPEED_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SPEED_PRINTF(f, a)
#endif
void die(const char *fmt, ...) SPEED_PRINTF(1, 2);
/* Prints "gcm-speed: <message>" to stderr, without a newline. */
void report_error_v(const char *fmt, va_list ap);
/* 64-byte aligned, as bssl aligns its buffers; dies when out of memory. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);

/* ---- options (speed_options.c) ----------------------------------------- */

struct options {
  int list, compare, openssl, json, progress, help, version;
  int algo_selected[NUM_ALGOS];
  size_t sizes[MAX_SIZES];
  size_t num_sizes;
  double seconds;
  const char *aes, *ghash, *fused;
  size_t chunk; /* 0: one-shot calls; else streaming in chunk-byte pieces */
  int directions; /* bit mask of DIR_SEAL | DIR_OPEN */
  int direction_given;
  const char *baseline; /* "AES/GHASH" or NULL */
  unsigned threads;
  unsigned repeat;
};

/* Prints --help's text. */
void usage(FILE *f);
/* Fills *o from the command line; exits with status 2 (after the reason
 * and the usage text) when it is wrong. */
void parse_args(struct options *o, int argc, char **argv);
/* How many algorithms and directions the options select. */
size_t count_selected(const struct options *o);
unsigned num_dirs(const struct options *o);

/* ---- measurement (speed_timing.c) --------------------------------------- */

/* What one measurement runs: fixed for all its threads. */
struct job {
  size_t algo;
  size_t size;
  int dir;
  int impl;
  const struct speed_key *key; /* shared by every thread (libgcm promises
                                * this) */
  const uint8_t *key_bytes;
  uint64_t budget_us;
  uint64_t warmup_us; /* untimed operations first, to fault in the buffers
                         and let the clock speed settle */
  pthread_barrier_t *barrier;
};

/* One run's count: `ops` operations in `us` microseconds of wall time. */
struct sample {
  uint64_t ops;
  uint64_t us;
};

double sample_mbps(const struct sample *s, size_t size);
double sample_opsps(const struct sample *s);
/* The 12-byte nonce of a thread's counter-th operation. */
void make_nonce(uint8_t nonce[GCM_NONCE_LEN], unsigned thread,
                uint64_t counter);
/* Runs one measurement o->repeat times on o->threads threads and returns
 * the median run; *runs_out receives every run's MB/s (malloc'd). */
struct sample measure(struct job *job, const struct options *o,
                      double **runs_out);

/* ---- results, progress and output (speed_output.c) ---------------------- */

struct result {
  size_t algo;
  size_t size;
  int dir;
  int impl;
  char aes[32], ghash[32], fused[32];
  int variable_time;
  struct sample median;
  double *runs_mbps; /* repeat entries */
  unsigned runs;
  int has_openssl;
  struct sample openssl;
  double *openssl_runs_mbps;
};

/* One row of a --compare table. */
struct pair {
  const char *aes, *ghash;
  int variable_time;
  int is_openssl;
  char label[72];
};

/* Progress on stderr: shown when stderr is a terminal, or always when
 * `forced` (--progress). progress_set_total gives the number of
 * measurements to come; progress_show counts one and names it. */
void progress_init(int forced);
void progress_set_total(unsigned total);
void progress_show(const char *what);
void progress_clear(void);

/* "AES-128-GCM (16 bytes) seal", with the chunking and thread count. */
void describe(char *buf, size_t n, size_t algo, size_t size, int dir,
              unsigned threads);
/* One bssl-style "Did ..." line, without its newline. */
void print_line(const char *prefix, const char *desc, const struct sample *s,
                size_t size);
void json_results(const struct result *r, size_t n, const struct options *o,
                  const char *baseline_aes, const char *baseline_ghash);
/* --compare's table for one algorithm and direction: mbps[pair][size]. */
void print_table(const struct options *o, size_t algo, int dir,
                 const struct pair *pairs, size_t num_pairs, size_t baseline,
                 const double *mbps, int any_vt);

/* ---- OpenSSL, loaded at run time (speed_openssl.c) ---------------------- */

/* Loads libcrypto or dies saying why. */
void ossl_load(void);
const char *ossl_version(void);
/* A context for algorithm `algo`, keyed once, for direction dir. */
void *ossl_ctx(size_t algo, const uint8_t *key, int dir);
void ossl_ctx_free(void *ctx);
int ossl_seal(void *ctx, uint8_t *out, uint8_t *tag, const uint8_t *nonce,
              const uint8_t *in, size_t len, const uint8_t *aad);
int ossl_open(void *ctx, uint8_t *out, const uint8_t *nonce,
              const uint8_t *in, size_t len, const uint8_t *tag,
              const uint8_t *aad);
/* Dies unless libgcm and OpenSSL seal `size` bytes to the same output. */
void cross_check(size_t algo, size_t size, const gcm_key *k,
                 const uint8_t *key);

/* ---- backends (speed_backends.c) ---------------------------------------- */

struct backend {
  char name[32];
  int usable, constant_time;
};

struct backends {
  struct backend aes[64], ghash[64];
  size_t num_aes, num_ghash;
};

void load_backends(struct backends *b);
const struct backend *find_backend(const struct backend *v, size_t n,
                                   const char *name);
int backend_is_variable_time(const struct backends *b, const char *aes,
                             const char *ghash);
/* 1 when the --fused kernel (if any) can serve the pair aes/ghash. */
int fused_fits(const char *aes, const char *ghash);
/* The key bytes every measurement uses. */
void key_bytes_for(uint8_t key[32]);
/* Initialises `k` for algorithm `algo` with the backends named (NULL: the
 * default) and --fused. Returns 1 on success, else 0 with libgcm's reason
 * recorded. */
int init_key(struct speed_key *k, size_t algo, const char *aes,
             const char *ghash);
/* The backend names of the key set up for `algo`: AES, GHASH, and the
 * fused kernel ("none" for AES-GCM-SIV, which has none). */
const char *key_aes_backend(const struct speed_key *k, size_t algo);
const char *key_ghash_backend(const struct speed_key *k, size_t algo);
const char *key_fused_backend(const struct speed_key *k, size_t algo);
void cleanup_key(struct speed_key *k, size_t algo);
/* After init_key failed for --aes `aes` / --ghash `ghash` (NULL: not
 * given) and --fused: names the option at fault and lists the valid
 * backend names of its kind, then exits with EXIT_FAILURE. */
void die_key_init(const char *aes, const char *ghash);
/* --list. */
int cmd_list(void);

/* ---- the modes (gcm_speed.c, speed_compare.c) --------------------------- */

/* One measurement into *results (see gcm_speed.c). */
struct result *measure_into(struct result **results, size_t *num_results,
                            const struct options *o, size_t a, size_t size,
                            int dir, int impl, const struct speed_key *key,
                            const uint8_t *key_bytes, const char *aes,
                            const char *ghash, int variable_time, int cross,
                            struct job *job_out);
int cmd_compare(const struct options *o, const struct backends *b);

#endif /* LIBGCM_TOOL_SPEED_H */
