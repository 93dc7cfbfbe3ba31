// libFuzzer's entry for a program with its own main (LLVM's libFuzzer documentation, "Using
// libFuzzer as a library"). libFuzzer installs no header: this is its declaration. Linked by
// -sanitize=fuzzer, so only a build with it (make fuzz, -D FUZZING) may call it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
