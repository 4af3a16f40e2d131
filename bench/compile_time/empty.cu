// Compile-time baseline: an empty translation unit (nvcc's fixed cost:
// host and device passes, fatbinary, with nothing to compile).
