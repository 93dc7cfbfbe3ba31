import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Marks the thread that is inside ``PlaybackEngine/render(_:frames:)``, so that what is confined
/// to the audio thread can check it is there (as swift-nio's `preconditionInEventLoop` does), and
/// what must never be freed there can tell when it is.
enum AudioThread {
    /// A thread-specific value, set while a thread renders: cheaper than a lock, and no allocation.
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { preconditionFailure("no thread-specific key left for the audio thread's mark") }
        return key
    }()

    /// Songs freed on an audio thread since the program started: there must be none (a free takes
    /// the allocator's lock, and may take long). Counted rather than trapped, so that a test can
    /// say what went wrong.
    static let songsFreed = Atomic<Int>(0)

    /// Whether the calling thread is rendering for the engine.
    static var isCurrent: Bool { pthread_getspecific(key) != nil }

    /// The calling thread marked as the audio thread until `remove()` (a thread marked already
    /// stays marked).
    struct Mark: ~Copyable {
        private let wasMarked = AudioThread.isCurrent

        init() {
            if !wasMarked { pthread_setspecific(AudioThread.key, UnsafeRawPointer(bitPattern: 1)) }
        }

        consuming func remove() {
            if !wasMarked { pthread_setspecific(AudioThread.key, nil) }
        }
    }

    /// Traps in debug builds when called from elsewhere than the audio thread.
    static func assertCurrent(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        assert(isCurrent, "\(what()) is the audio thread's alone", file: file, line: line)
    }
}
