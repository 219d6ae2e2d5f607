/*
 * tool/speed_options.c: gcm-speed's command line: the --help text, the
 * parser and its checks. A bad command line prints the reason and the
 * usage text to stderr and exits with status 2; nothing here measures.
 *
 * Flags take their value as `--flag VALUE` or `--flag=VALUE`; lists
 * (--filter, --sizes) are comma separated. After parsing, the defaults are
 * filled in and the combinations that make no sense are refused.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

#define EXIT_USAGE 2
#define MAX_SIZE ((size_t)64 << 20)
#define MAX_THREADS 1024
#define MAX_REPEAT 1000
#define MAX_SECONDS 3600.0

static const size_t kDefaultSizes[] = {16, 256, 1350, 8192, 16384};

static int str_ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char ca = *a, cb = *b;
    if (ca >= 'a' && ca <= 'z') ca = (char)(ca - 'a' + 'A');
    if (cb >= 'a' && cb <= 'z') cb = (char)(cb - 'a' + 'A');
    if (ca != cb) return 0;
  }
  return *a == *b;
}

void usage(FILE *f) {
  fprintf(f,
"Usage: %s [options]\n"
"\n"
"Measures libgcm's AES-GCM and AES-GCM-SIV seal and open and prints lines in\n"
"the format of BoringSSL's `bssl speed` (MB/s = 10^6 bytes/s; 13 bytes of\n"
"AAD and a 16-byte tag per operation, a fresh 12-byte nonce every\n"
"operation).\n"
"\n"
"Modes:\n"
"  (none)                AES-128/192/256-GCM and AES-128/256-GCM-SIV (RFC\n"
"                        8452), sizes 16 256 1350 8192 16384, seal and open,\n"
"                        with the default backends\n"
"  --list                list the backends: <aes|ghash|fused> <name>\n"
"                        <usable|unusable> <constant-time|variable-time>, for\n"
"                        fused kernels followed by `for <aes>/<ghash>` (`any`\n"
"                        where a kernel fits every backend of that kind), then\n"
"                        `key <aes> <ghash> <fused|none> <bytes>` for every\n"
"                        usable choice (the memory a key on it takes,\n"
"                        gcm_key_size_for), `siv-key <aes> <ghash> <fused|none>\n"
"                        <bytes>` for every usable AES-GCM-SIV choice\n"
"                        (gcm_siv_key_size_for), then\n"
"                        the line `default <aes> <ghash> <fused|none>` (what\n"
"                        gcm_key_init picks now, after LIBGCM_AES, LIBGCM_GHASH,\n"
"                        LIBGCM_FUSED and OPENSSL_ia32cap)\n"
"  --compare             seal with every usable (AES, GHASH) backend pair and\n"
"                        print a table of MB/s per size with the change against\n"
"                        a baseline pair; `*` marks variable-time backends\n"
"  --openssl             also measure the system OpenSSL (libcrypto.so.3, else\n"
"                        libcrypto.so, loaded at run time) and print the ratio\n"
"                        libgcm/OpenSSL; OpenSSL honours OPENSSL_ia32cap as\n"
"                        libgcm does, so both can be held to one CPU tier\n"
"\n"
"Options:\n"
"  --filter LIST         algorithms, comma separated: AES-128-GCM, AES-192-GCM,\n"
"                        AES-256-GCM, AES-128-GCM-SIV, AES-256-GCM-SIV\n"
"                        (case-insensitive); AES-GCM-SIV is one-shot only and\n"
"                        left out by default under --chunk, --fused and\n"
"                        --openssl\n"
"  --sizes LIST          message sizes in bytes, comma separated (1..%zu)\n"
"  --seconds S           time budget per measurement (default 1.0)\n"
"  --repeat K            take each measurement K times and report the run with\n"
"                        the median throughput (lower median for even K);\n"
"                        steadier figures on a busy machine (default 1)\n"
"  --direction D         seal, open or both (default both; --compare: seal)\n"
"  --aes NAME            force the AES backend (see --list)\n"
"  --ghash NAME          force the GHASH backend (see --list); with --compare,\n"
"                        --aes/--ghash restrict the pairs compared\n"
"  --fused NAME          force the fused AES-CTR+GHASH kernel (see --list), or\n"
"                        `none` for the two-pass path; default: what\n"
"                        gcm_key_init attaches. With --compare, every pair\n"
"                        the kernel fits is measured with it\n"
"  --chunk N             seal and open through the streaming API: AAD in one\n"
"                        call, the message in N-byte updates (1..%zu)\n"
"  --baseline AES/GHASH  --compare's reference pair. Default: the portable C\n"
"                        pair ct/ct64, which shows what each CPU tier gains;\n"
"                        if either is missing or unusable, the first usable\n"
"                        constant-time AES and GHASH backends in --list order\n"
"  --threads N           N threads share ONE gcm_key, each with its own buffers\n"
"                        and nonces; the line gives their aggregate throughput\n"
"  --json                print one JSON object with every result instead of\n"
"                        text lines\n"
"  --progress            show progress on stderr even when it is not a terminal\n"
"                        (progress is shown by default when stderr is a tty)\n"
"  --help                this text\n"
"  --version             print gcm-speed's libgcm version and exit\n"
"\n"
"bssl speed's spellings are accepted too: -filter STR (the algorithms whose\n"
"name contains STR), -timeout SECONDS, -timeout_ms MS, -chunks LIST (sizes),\n"
"-threads N, -json.\n"
"\n"
"Exit status: 0 on success, 1 when a measurement or a backend fails, 2 for a\n"
"bad command line.\n",
          g_prog, MAX_SIZE, MAX_SIZE);
}

static void usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_error_v(fmt, ap);
  va_end(ap);
  fputs("\n\n", stderr);
  usage(stderr);
  exit(EXIT_USAGE);
}

static unsigned long parse_ulong(const char *flag, const char *s,
                                 unsigned long min, unsigned long max) {
  char *end;
  unsigned long v;
  if (*s < '0' || *s > '9') {
    usage_error("%s: '%s' is not a number", flag, s);
  }
  errno = 0;
  v = strtoul(s, &end, 10);
  if (errno != 0 || *end != '\0') {
    usage_error("%s: '%s' is not a number", flag, s);
  }
  if (v < min || v > max) {
    usage_error("%s: %s is out of range (%lu..%lu)", flag, s, min, max);
  }
  return v;
}

static double parse_seconds(const char *s) {
  char *end;
  double v;
  errno = 0;
  v = strtod(s, &end);
  if (errno != 0 || end == s || *end != '\0' || !isfinite(v)) {
    usage_error("--seconds: '%s' is not a number", s);
  }
  if (v <= 0.0 || v > MAX_SECONDS) {
    usage_error("--seconds: %s is out of range (0..%.0f]", s, MAX_SECONDS);
  }
  return v;
}

/* Splits a comma-separated list in place and calls fn on each item. */
static void for_each_item(const char *flag, const char *list,
                          void (*fn)(struct options *, const char *, const char *),
                          struct options *o) {
  size_t n = strlen(list);
  char *copy = xmalloc(n + 1);
  char *p = copy, *comma;
  memcpy(copy, list, n + 1);
  if (n == 0) {
    usage_error("%s: empty list", flag);
  }
  for (;;) {
    comma = strchr(p, ',');
    if (comma != NULL) *comma = '\0';
    if (*p == '\0') {
      usage_error("%s: empty item in '%s'", flag, list);
    }
    fn(o, flag, p);
    if (comma == NULL) break;
    p = comma + 1;
  }
  free(copy);
}

static void add_algo(struct options *o, const char *flag, const char *name) {
  for (size_t i = 0; i < NUM_ALGOS; i++) {
    if (str_ieq(name, kAlgos[i].name)) {
      o->algo_selected[i] = 1;
      return;
    }
  }
  usage_error("%s: unknown algorithm '%s' (known: AES-128-GCM, AES-192-GCM, "
              "AES-256-GCM, AES-128-GCM-SIV, AES-256-GCM-SIV)",
              flag, name);
}

/* bssl speed's -filter: every algorithm whose name contains `pattern`
 * (bssl matches its test names the same way, case-sensitively). */
static void add_algo_substring(struct options *o, const char *pattern) {
  int any = 0;
  for (size_t i = 0; i < NUM_ALGOS; i++) {
    if (strstr(kAlgos[i].name, pattern) != NULL) {
      /* 2: chosen by a pattern, not by name (see parse_args). */
      if (!o->algo_selected[i]) o->algo_selected[i] = 2;
      any = 1;
    }
  }
  if (!any) {
    usage_error("-filter: no algorithm name contains '%s' (gcm-speed measures "
                "AES-128-GCM, AES-192-GCM, AES-256-GCM, AES-128-GCM-SIV, "
                "AES-256-GCM-SIV)",
                pattern);
  }
}

static void add_size(struct options *o, const char *flag, const char *s) {
  if (o->num_sizes == MAX_SIZES) {
    usage_error("%s: at most %d sizes", flag, MAX_SIZES);
  }
  o->sizes[o->num_sizes++] = (size_t)parse_ulong(flag, s, 1, MAX_SIZE);
}

void parse_args(struct options *o, int argc, char **argv) {
  int any_algo = 0;
  memset(o, 0, sizeof(*o));
  o->seconds = 1.0;
  o->threads = 1;
  o->repeat = 1;

  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const char *val = NULL;
    char name[32];
    const char *eq;
    size_t name_len;

    /* bssl speed's spellings: one dash, the value in the next argument. */
    if (arg[0] == '-' && arg[1] != '-') {
      if (strcmp(arg, "-json") == 0) {
        o->json = 1;
        continue;
      }
      if (strcmp(arg, "-filter") != 0 && strcmp(arg, "-timeout") != 0 &&
          strcmp(arg, "-timeout_ms") != 0 && strcmp(arg, "-chunks") != 0 &&
          strcmp(arg, "-threads") != 0) {
        usage_error("unknown option '%s'", arg);
      }
      if (i + 1 >= argc) usage_error("%s needs a value", arg);
      val = argv[++i];
      if (strcmp(arg, "-filter") == 0) {
        add_algo_substring(o, val);
        any_algo = 1;
      } else if (strcmp(arg, "-timeout") == 0) {
        o->seconds = (double)parse_ulong(arg, val, 1, (unsigned long)MAX_SECONDS);
      } else if (strcmp(arg, "-timeout_ms") == 0) {
        o->seconds = (double)parse_ulong(arg, val, 1, (unsigned long)MAX_SECONDS * 1000) / 1000.0;
      } else if (strcmp(arg, "-chunks") == 0) {
        for_each_item(arg, val, add_size, o);
      } else {
        o->threads = (unsigned)parse_ulong(arg, val, 1, MAX_THREADS);
      }
      continue;
    }
    if (strncmp(arg, "--", 2) != 0) {
      usage_error("unexpected argument '%s'", arg);
    }
    eq = strchr(arg, '=');
    name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (name_len >= sizeof(name)) {
      usage_error("unknown option '%s'", arg);
    }
    memcpy(name, arg, name_len);
    name[name_len] = '\0';

#define FLAG(s) (strcmp(name, s) == 0)
    /* Flags without a value. */
    if (FLAG("--help") || FLAG("--version") || FLAG("--list") || FLAG("--compare") ||
        FLAG("--openssl") || FLAG("--json") || FLAG("--progress")) {
      if (eq != NULL) {
        usage_error("%s takes no value", name);
      }
      if (FLAG("--help")) o->help = 1;
      else if (FLAG("--version")) o->version = 1;
      else if (FLAG("--list")) o->list = 1;
      else if (FLAG("--compare")) o->compare = 1;
      else if (FLAG("--openssl")) o->openssl = 1;
      else if (FLAG("--json")) o->json = 1;
      else o->progress = 1;
      continue;
    }
    if (!(FLAG("--filter") || FLAG("--sizes") || FLAG("--seconds") ||
          FLAG("--aes") || FLAG("--ghash") || FLAG("--fused") ||
          FLAG("--chunk") || FLAG("--direction") ||
          FLAG("--baseline") || FLAG("--threads") || FLAG("--repeat"))) {
      usage_error("unknown option '%s'", arg);
    }
    if (eq != NULL) {
      val = eq + 1;
    } else if (i + 1 < argc) {
      val = argv[++i];
    } else {
      usage_error("%s needs a value", name);
    }

    if (FLAG("--filter")) {
      for_each_item(name, val, add_algo, o);
      any_algo = 1;
    } else if (FLAG("--sizes")) {
      o->num_sizes = 0;
      for_each_item(name, val, add_size, o);
    } else if (FLAG("--seconds")) {
      o->seconds = parse_seconds(val);
    } else if (FLAG("--aes")) {
      if (*val == '\0') usage_error("--aes: empty backend name");
      o->aes = val;
    } else if (FLAG("--ghash")) {
      if (*val == '\0') usage_error("--ghash: empty backend name");
      o->ghash = val;
    } else if (FLAG("--fused")) {
      if (*val == '\0') usage_error("--fused: empty backend name");
      o->fused = val;
    } else if (FLAG("--chunk")) {
      o->chunk = (size_t)parse_ulong(name, val, 1, MAX_SIZE);
    } else if (FLAG("--direction")) {
      if (strcmp(val, "seal") == 0) o->directions = DIR_SEAL;
      else if (strcmp(val, "open") == 0) o->directions = DIR_OPEN;
      else if (strcmp(val, "both") == 0) o->directions = DIR_SEAL | DIR_OPEN;
      else usage_error("--direction: '%s' is not seal, open or both", val);
      o->direction_given = 1;
    } else if (FLAG("--baseline")) {
      const char *slash = strchr(val, '/');
      if (slash == NULL || slash == val || slash[1] == '\0' ||
          strchr(slash + 1, '/') != NULL) {
        usage_error("--baseline: '%s' is not AES/GHASH (e.g. ct/ct64)", val);
      }
      o->baseline = val;
    } else if (FLAG("--threads")) {
      o->threads = (unsigned)parse_ulong(name, val, 1, MAX_THREADS);
    } else if (FLAG("--repeat")) {
      o->repeat = (unsigned)parse_ulong(name, val, 1, MAX_REPEAT);
    }
#undef FLAG
  }

  /* AES-GCM-SIV is one-shot only, and libgcm's own: not with --chunk
   * (streaming), --fused (AES-GCM's kernels) or --openssl. By default, or
   * when a -filter pattern matches it, it is measured unless one of those
   * is given; named with one, it is an error. */
  const int gcm_only = o->chunk != 0 || o->fused != NULL || o->openssl;
  if (!any_algo) {
    for (size_t i = 0; i < NUM_ALGOS; i++) o->algo_selected[i] = 2;
  }
  size_t left = 0;
  for (size_t i = 0; i < NUM_ALGOS; i++) {
    if (gcm_only && o->algo_selected[i] && kAlgos[i].siv) {
      if (o->algo_selected[i] == 1) {
        usage_error("%s is measured one-shot with libgcm only; it cannot be "
                    "combined with --chunk, --fused or --openssl",
                    kAlgos[i].name);
      }
      o->algo_selected[i] = 0;
    }
    o->algo_selected[i] = o->algo_selected[i] != 0;
    left += (size_t)o->algo_selected[i];
  }
  if (left == 0) {
    usage_error("no AES-GCM algorithm left to measure with --chunk, --fused "
                "or --openssl");
  }
  if (o->num_sizes == 0) {
    o->num_sizes = sizeof(kDefaultSizes) / sizeof(kDefaultSizes[0]);
    memcpy(o->sizes, kDefaultSizes, sizeof(kDefaultSizes));
  }
  if (!o->direction_given) {
    o->directions = o->compare ? DIR_SEAL : (DIR_SEAL | DIR_OPEN);
  }
  if (o->baseline != NULL && !o->compare) {
    usage_error("--baseline only makes sense with --compare");
  }
  if (o->chunk != 0 && o->openssl) {
    usage_error("--chunk measures libgcm's streaming API only; it cannot be "
                "combined with --openssl");
  }
  if (o->list && (o->compare || o->openssl || o->json)) {
    usage_error("--list cannot be combined with --compare, --openssl or "
                "--json");
  }
}

size_t count_selected(const struct options *o) {
  size_t n = 0;
  for (size_t i = 0; i < NUM_ALGOS; i++) n += o->algo_selected[i] ? 1 : 0;
  return n;
}

unsigned num_dirs(const struct options *o) {
  return (unsigned)(((o->directions & DIR_SEAL) != 0) +
                    ((o->directions & DIR_OPEN) != 0));
}
