#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <pthread.h>

/// Counts the calls to malloc, calloc, realloc, the aligned allocators and free made on threads
/// that carry a thread-specific value under `key` (the audio thread's mark), while counting is on.
/// The test process's allocator is replaced by these functions, which forward to glibc's own.
void allocation_counter_start(pthread_key_t key);
/// Stops counting; the calls counted since the start.
long allocation_counter_stop(void);

#endif
