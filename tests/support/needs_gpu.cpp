bool cupp_test_needs_gpu() {
  return true;
}
