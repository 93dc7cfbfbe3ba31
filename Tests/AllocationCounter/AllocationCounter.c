// Replaces the process's allocator (the test executable's definitions win over glibc's, for every
// library loaded) with functions that count the calls made on marked threads and forward to
// glibc's own entry points. Written in C: the counting itself must not allocate, and a Swift
// function can neither be named malloc nor promise that.
#include "AllocationCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static atomic_bool counting;
static atomic_long counted;
static pthread_key_t markKey;

void allocation_counter_start(pthread_key_t key) {
    markKey = key;
    atomic_store(&counted, 0);
    atomic_store(&counting, 1);
}

long allocation_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&counted);
}

static void count(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed) && pthread_getspecific(markKey) != NULL) {
        atomic_fetch_add(&counted, 1);
    }
}

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer != NULL) count();
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}
