/*
 * Reads a LIBSVM text file into CSR arrays the way `online-kernels train` does (LibSvmReader,
 * LabelMap.auto, SparseDataset): 1-based indices to 0-based, values parsed to the nearest double
 * (as Double.parseDouble), '#' comments, a UTF-8 byte-order mark, blank lines skipped; labels
 * +1/-1 give one output, labels all in {0,1} or all in {1,2} are binary (the smaller -> -1),
 * other class numbers 0..K-1 give K one-vs-rest outputs; the dimension is the largest index
 * (at least `min_dimension`, at least 1). Gzip files are not read (gunzip them first).
 */
#ifndef CONTENDER_LIBSVM_READ_H
#define CONTENDER_LIBSVM_READ_H

#include <stdint.h>

typedef struct {
  int n;            /* rows */
  int d;            /* dimension */
  int outputs;      /* 1 (binary, labels +1/-1) or K classes (labels 0..K-1) */
  int64_t nnz;      /* stored entries */
  int max_nnz;      /* longest row */
  int64_t *start;   /* n + 1 row offsets */
  int32_t *idx;     /* 0-based indices, strictly increasing within a row */
  double *val;      /* values as parsed */
  float *valf;      /* values rounded to float (as SparseRows does for float training) */
  double *label;    /* -1/+1, or class 0..K-1 */
  const char *labels_rule; /* "+1/-1", "0/1 -> -1/+1", "1/2 -> -1/+1" or "classes" */
} dataset;

/*
 * Reads `path`. `max_magnitude` is the input limit of the element type (2^40 float, 2^480
 * double, as the CLI's reader refuses larger values); `min_dimension` is --dimension (0: none, in
 * which case indices above 2^24 are refused as the CLI refuses them). Returns 0, or prints one
 * line "error: ..." to stderr and returns 1.
 */
int libsvm_read(const char *path, double max_magnitude, int min_dimension, dataset *out);

#endif
