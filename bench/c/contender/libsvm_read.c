/* LIBSVM text -> CSR, as the CLI reads it (see libsvm_read.h). */
#include "libsvm_read.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_DIMENSION (1 << 24) /* Main.DEFAULT_MAX_DIMENSION */

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0b;
}

/*
 * LibSvmReader.parseNumber's grammar ([+-]digits[.digits][(e|E)[+-]digits], at least one digit
 * before the exponent), then the nearest double (strtod rounds correctly, as
 * Double.parseDouble does). Returns 0 when the text is not a number.
 */
static int parse_number(const char *s, const char *e, double *out) {
  const char *p = s;
  if (p < e && (*p == '+' || *p == '-')) p++;
  int digits = 0;
  while (p < e && *p >= '0' && *p <= '9') p++, digits++;
  if (p < e && *p == '.') {
    p++;
    while (p < e && *p >= '0' && *p <= '9') p++, digits++;
  }
  if (digits == 0) return 0;
  if (p == e && digits <= 15) {
    /*
     * Fast path (Clinger): at most 15 digits are an exact integer m, 10^f (f <= 15) is exact, so
     * m / 10^f, one correctly rounded division, is the nearest double, as strtod's.
     */
    static const double POW10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
        1e14, 1e15};
    int64_t m = 0;
    int frac = 0, in_frac = 0;
    for (const char *q = s; q < e; q++) {
      if (*q == '.') {
        in_frac = 1;
      } else if (*q >= '0' && *q <= '9') {
        m = m * 10 + (*q - '0');
        frac += in_frac;
      }
    }
    double v = frac ? (double) m / POW10[frac] : (double) m;
    *out = *s == '-' ? -v : v;
    return 1;
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < e && (*p == '+' || *p == '-')) p++;
    const char *x = p;
    while (p < e && *p >= '0' && *p <= '9') p++;
    if (p == x) return 0;
  }
  if (p != e) return 0;
  char buf[128];
  size_t len = (size_t) (e - s);
  if (len < sizeof buf) {
    memcpy(buf, s, len);
    buf[len] = 0;
    *out = strtod(buf, NULL);
  } else {
    char *big = malloc(len + 1);
    if (!big) return 0;
    memcpy(big, s, len);
    big[len] = 0;
    *out = strtod(big, NULL);
    free(big);
  }
  return 1;
}

static int fail(const char *path, long line, const char *what) {
  fprintf(stderr, "error: %s:%ld: %s\n", path, line, what);
  return 1;
}

int libsvm_read(const char *path, double max_magnitude, int min_dimension, dataset *out) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "error: cannot read %s: %s\n", path, strerror(errno));
    return 1;
  }
  if (fseek(f, 0, SEEK_END) != 0) {
    fclose(f);
    fprintf(stderr, "error: cannot read %s: not a regular file\n", path);
    return 1;
  }
  long size = ftell(f);
  rewind(f);
  char *text = malloc((size_t) size + 1);
  if (!text || fread(text, 1, (size_t) size, f) != (size_t) size) {
    fclose(f);
    fprintf(stderr, "error: cannot read %s\n", path);
    return 1;
  }
  fclose(f);
  text[size] = 0;
  if (size >= 2 && (unsigned char) text[0] == 0x1f && (unsigned char) text[1] == 0x8b) {
    fprintf(stderr, "error: %s is gzip-compressed: gunzip it first\n", path);
    return 1;
  }

  /* Upper bounds from a first look: rows <= lines, entries <= ':' count. */
  int64_t lines = 1, colons = 0;
  for (long i = 0; i < size; i++) {
    lines += text[i] == '\n';
    colons += text[i] == ':';
  }
  out->start = malloc((size_t) (lines + 1) * sizeof *out->start);
  out->label = malloc((size_t) lines * sizeof *out->label);
  out->idx = malloc((size_t) (colons + 1) * sizeof *out->idx);
  out->val = malloc((size_t) (colons + 1) * sizeof *out->val);
  if (!out->start || !out->label || !out->idx || !out->val) {
    fprintf(stderr, "error: out of memory reading %s\n", path);
    return 1;
  }
  int max_dim = min_dimension > 0 ? min_dimension : DEFAULT_MAX_DIMENSION;
  int n = 0, max_index = 0, max_nnz = 0;
  int64_t nnz = 0;
  long first_minus_one = 0, first_class = 0;
  long line_no = 0;
  out->start[0] = 0;
  for (long pos = 0; pos < size;) {
    long end = pos;
    while (end < size && text[end] != '\n') end++;
    line_no++;
    long s = pos, e = end;
    pos = end + 1;
    if (line_no == 1 && e - s >= 3 && (unsigned char) text[s] == 0xef && (unsigned char) text[s + 1] == 0xbb
        && (unsigned char) text[s + 2] == 0xbf) {
      s += 3;
    }
    for (long i = s; i < e; i++) {
      if (text[i] == '#') {
        e = i;
        break;
      }
    }
    long p = s;
    while (p < e && is_space(text[p])) p++;
    if (p == e) continue;
    long ts = p;
    while (p < e && !is_space(text[p])) p++;
    double y;
    if (!parse_number(text + ts, text + p, &y)) return fail(path, line_no, "bad label: not a number");
    if (y == -1.0) {
      if (first_class) return fail(path, line_no, "label -1 after a class number: labels must be all +1/-1 or all 0..K-1");
      if (!first_minus_one) first_minus_one = line_no;
    } else if (y != 1.0) {
      if (!(y >= 0) || y != rint(y) || y > 2147483646.0) return fail(path, line_no, "bad label: must be +1/-1 or a class number 0..K-1");
      if (first_minus_one) return fail(path, line_no, "class number after a label -1: labels must be all +1/-1 or all 0..K-1");
      if (!first_class) first_class = line_no;
    }
    int prev = 0, row_nnz = 0;
    while (1) {
      while (p < e && is_space(text[p])) p++;
      if (p == e) break;
      ts = p;
      long colon = -1;
      while (p < e && !is_space(text[p])) {
        if (text[p] == ':' && colon < 0) colon = p;
        p++;
      }
      if (colon < 0) return fail(path, line_no, "a feature has no ':' (features are index:value)");
      if (colon == ts) return fail(path, line_no, "missing index before ':'");
      long v = 0;
      for (long i = ts; i < colon; i++) {
        int c = text[i] - '0';
        if (c < 0 || c > 9) return fail(path, line_no, "index is not an integer (or < 1: indices are 1-based)");
        if (v <= 2147483647L) v = v * 10 + c;
      }
      if (v < 1) return fail(path, line_no, "index < 1: indices are 1-based");
      if (v > 2147483647L) return fail(path, line_no, "index too large");
      int index = (int) v;
      if (index <= prev) return fail(path, line_no, "indices must be strictly increasing");
      if (colon + 1 == p) return fail(path, line_no, "an index has no value after ':'");
      double x;
      if (!parse_number(text + colon + 1, text + p, &x)) return fail(path, line_no, "a value is not a number");
      if (!isfinite(x)) return fail(path, line_no, "a value is not a finite number");
      if (fabs(x) > max_magnitude) return fail(path, line_no, "a value exceeds the largest input magnitude training accepts");
      if (index > max_dim) return fail(path, line_no, "a feature index exceeds the largest dimension (give --dimension)");
      out->idx[nnz] = index - 1;
      out->val[nnz] = x;
      nnz++;
      row_nnz++;
      prev = index;
    }
    if (prev > max_index) max_index = prev;
    if (row_nnz > max_nnz) max_nnz = row_nnz;
    out->label[n] = y;
    n++;
    out->start[n] = nnz;
  }
  free(text);
  if (n == 0) {
    fprintf(stderr, "error: %s has no examples\n", path);
    return 1;
  }
  out->n = n;
  out->nnz = nnz;
  out->max_nnz = max_nnz > 0 ? max_nnz : 1;
  int d = max_index > min_dimension ? max_index : min_dimension;
  out->d = d > 1 ? d : 1;

  /* SparseDataset.isBinary, then LabelMap.auto. */
  int binary = 1;
  for (int r = 0; r < n; r++) binary &= out->label[r] == 1.0 || out->label[r] == -1.0;
  out->labels_rule = "+1/-1";
  out->outputs = 1;
  if (!binary) {
    int only01 = 1, only12 = 1;
    double max = -1;
    for (int r = 0; r < n; r++) {
      double l = out->label[r];
      only01 &= l == 0 || l == 1;
      only12 &= l == 1 || l == 2;
      if (l > max) max = l;
    }
    if (only01 || only12) {
      double neg = only01 ? 0 : 1;
      for (int r = 0; r < n; r++) out->label[r] = out->label[r] == neg ? -1.0 : 1.0;
      out->labels_rule = only01 ? "0/1 -> -1/+1" : "1/2 -> -1/+1";
    } else {
      out->outputs = (int) max + 1;
      out->labels_rule = "classes";
    }
  }
  out->valf = malloc((size_t) (nnz + 1) * sizeof *out->valf);
  if (!out->valf) {
    fprintf(stderr, "error: out of memory reading %s\n", path);
    return 1;
  }
  for (int64_t j = 0; j < nnz; j++) out->valf[j] = (float) out->val[j];
  return 0;
}
