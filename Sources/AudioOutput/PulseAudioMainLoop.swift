import CPulseAudio
import Synchronization

/// libpulse's threaded main loop: a thread of libpulse's own runs every callback (the stream's
/// write callback included) with the loop's lock held. Any other thread that calls libpulse must
/// hold the same lock; the loop stands still meanwhile, so it is only ever held briefly.
///
/// `wait` gives the lock up while it sleeps, so the loop can run the callback the waiter is
/// waiting for. libpulse has no timed wait; `wait(atMost:context:until:)` gets one with a timer
/// event on the loop itself.
final class PulseAudioMainLoop {
    let pointer: OpaquePointer
    private var isRunning = false
    private let scheduling = Mutex(RealtimeScheduling.pending)

    init?() {
        guard let pointer = pa_threaded_mainloop_new() else { return nil }
        self.pointer = pointer
    }

    deinit {
        stop()
        pa_threaded_mainloop_free(pointer)
    }

    /// The vtable contexts are created on.
    var api: UnsafeMutablePointer<pa_mainloop_api> { pa_threaded_mainloop_get_api(pointer) }

    func start(name: String) -> Bool {
        pa_threaded_mainloop_set_name(pointer, name)
        isRunning = pa_threaded_mainloop_start(pointer) == 0
        return isRunning
    }

    /// Asks for real-time scheduling of the loop's thread, which runs the render closure; the
    /// answer comes to `realtimeScheduling` once the thread has run the request. Call it with the
    /// lock held: it adds an event to the running loop.
    func requestRealtimeScheduling() {
        pa_threaded_mainloop_once_unlocked(
            pointer,
            { _, user in
                let loop = Unmanaged<PulseAudioMainLoop>.fromOpaque(user!).takeUnretainedValue()
                let answer = RealtimeScheduling.requestForCurrentThread()
                loop.scheduling.withLock { $0 = answer }
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    var realtimeScheduling: RealtimeScheduling { scheduling.withLock { $0 } }

    /// Ends the loop's thread. Must be called without the lock, and not from the loop's thread.
    func stop() {
        guard isRunning else { return }
        isRunning = false
        pa_threaded_mainloop_stop(pointer)
    }

    /// True on the loop's own thread: inside a callback, where waiting would deadlock.
    var isCurrentThread: Bool { pa_threaded_mainloop_in_thread(pointer) != 0 }

    func lock() { pa_threaded_mainloop_lock(pointer) }
    func unlock() { pa_threaded_mainloop_unlock(pointer) }

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Wakes every thread in `wait`. Called from callbacks, which hold the lock.
    func signal() { pa_threaded_mainloop_signal(pointer, 0) }

    /// Sleeps, with the lock held, until `done()` or until `timeout` has passed: true when `done()`.
    /// Whatever callback makes `done()` true must call `signal()`.
    func wait(atMost timeout: Duration, context: OpaquePointer, until done: () -> Bool) -> Bool {
        if done() { return true }
        // The timer's callback may only touch memory that outlives it: a flag of this wait's own.
        let timer = UnsafeMutablePointer<TimerFlag>.allocate(capacity: 1)
        timer.initialize(to: TimerFlag(loop: pointer))
        defer { timer.deallocate() }
        let usec = pa_rtclock_now() + Self.microseconds(timeout)
        let event = pa_context_rttime_new(
            context, usec,
            { _, _, _, user in
                let flag = user!.assumingMemoryBound(to: TimerFlag.self)
                flag.pointee.fired = true
                pa_threaded_mainloop_signal(flag.pointee.loop, 0)
            }, timer)
        // Freed under the lock, so the callback cannot run once the flag is gone.
        defer { if let event { api.pointee.time_free(event) } }
        while !done() {
            if timer.pointee.fired || event == nil { return done() }
            pa_threaded_mainloop_wait(pointer)
        }
        return true
    }

    /// Waits, with the lock held, for an operation to finish (or be cancelled because the
    /// connection broke): true when it finished in time. A late operation is cancelled, so its
    /// callback never runs after this returns. The operation is released either way.
    func wait(for operation: OpaquePointer, atMost timeout: Duration, context: OpaquePointer) -> Bool {
        defer { pa_operation_unref(operation) }
        let finished = wait(atMost: timeout, context: context) {
            pa_operation_get_state(operation) != PA_OPERATION_RUNNING
        }
        if !finished { pa_operation_cancel(operation) }
        return finished && pa_operation_get_state(operation) == PA_OPERATION_DONE
    }

    static func microseconds(_ duration: Duration) -> pa_usec_t {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return pa_usec_t(seconds) * 1_000_000 + pa_usec_t(attoseconds / 1_000_000_000_000)
    }

    private struct TimerFlag {
        let loop: OpaquePointer
        var fired = false
    }
}
