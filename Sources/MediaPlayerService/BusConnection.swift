import CSystemd
import LibraryLoader

#if canImport(Glibc)
    import Glibc
#endif

/// The session bus connection that serves the MPRIS object, and the loop its thread runs (see
/// `MediaPlayerService` for the threads). sd-bus is not thread-safe: after `init`, only that
/// loop touches the connection; other threads only write to the wake-up pipe.
final class BusConnection: @unchecked Sendable {
    // @unchecked: confined. After `init` only the loop's thread touches the sd-bus connection;
    // other threads only write to the wake-up pipe.
    /// The name taken: `org.mpris.MediaPlayer2.smfplay`, or with `.instance<pid>` when another
    /// player holds that one.
    let name: String
    private let bus: OpaquePointer
    private let exchange: MediaPlayerExchange
    /// Read by sd-bus for as long as the object is registered: they go after the bus.
    private let tables: [BusInterfaceTable]
    /// The tables' registrations, released before the bus.
    private let slots: [OpaquePointer?]
    /// Written to by `wake()`, polled by the loop beside the bus.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`), registers the object and takes a
    /// name. Everything is set up before the connection exists as an object, so that a failure
    /// undoes exactly what was done.
    init(exchange: MediaPlayerExchange) throws(MediaPlayerServiceError) {
        if let reason = smfplay_load_libsystemd() {
            throw .noSessionBus(reason: "\(String(cString: reason)) (Debian's libsystemd0 speaks D-Bus)")
        }
        var opened: OpaquePointer?
        let result = sd_bus_open_user(&opened)
        guard result >= 0, let bus = opened else { throw .noSessionBus(reason: BusFailure(code: -result).description) }
        let tables = [
            BusInterfaceTable(
                interface: MPRISObject.rootInterface, members: MPRISObject.rootMembers,
                method: Self.handleMethod, get: Self.getProperty, set: Self.setProperty),
            BusInterfaceTable(
                interface: MPRISObject.playerInterface, members: MPRISObject.playerMembers,
                method: Self.handleMethod, get: Self.getProperty, set: Self.setProperty),
        ]
        var slots: [OpaquePointer?] = []
        func undo(_ error: MediaPlayerServiceError) -> MediaPlayerServiceError {
            // sd-bus reads the tables as it lets the slots go: they must outlive the bus here too.
            // Nothing is flushed: a bus that did not answer would hold the close until it does.
            withExtendedLifetime(tables) {
                slots.forEach { sd_bus_slot_unref($0) }
                sd_bus_close_unref(bus)
            }
            return error
        }
        // The object before the name: a client that sees the name finds the object there.
        for table in tables {
            var slot: OpaquePointer?
            let added = sd_bus_add_object_vtable(
                bus, &slot, MPRISObject.path, table.interface, table.entries,
                Unmanaged.passUnretained(exchange).toOpaque())
            guard added >= 0 else {
                throw undo(.registrationFailed(what: "the object \(MPRISObject.path)", reason: BusFailure(code: -added).description))
            }
            slots.append(slot)
        }
        let name: String
        do {
            name = try Self.requestName(on: bus)
        } catch {
            throw undo(error)
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw undo(.registrationFailed(what: "a wake-up pipe", reason: String(cString: strerror(errno)))) }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        self.bus = bus
        self.exchange = exchange
        self.tables = tables
        self.slots = slots
        self.name = name
        (wakeRead, wakeWrite) = (pipeEnds[0], pipeEnds[1])
    }

    deinit {
        slots.forEach { sd_bus_slot_unref($0) }
        sd_bus_flush_close_unref(bus)
        close(wakeRead)
        close(wakeWrite)
    }

    /// How long the session bus may take to connect and give the name: the player waits for it
    /// (the name is taken before the music starts being reported), and a bus that does not answer
    /// (a stopped or hung daemon) would hold it, deaf to Ctrl-C, for sd-bus's 90 s.
    static let nameTimeoutMicroseconds: UInt64 = 1_000_000

    /// The well-known name, or one of this process's own when another player has it (the
    /// specification's `.instance<pid>`).
    private static func requestName(on bus: OpaquePointer) throws(MediaPlayerServiceError) -> String {
        let deadline = monotonicMicroseconds() + nameTimeoutMicroseconds
        var result = try request(MPRISObject.busName, on: bus, before: deadline)
        // No bus to talk to: the first call that needs one says so.
        if result == -ENOENT || result == -ECONNREFUSED || result == -ENOTCONN || result == -ECONNRESET {
            throw .noSessionBus(reason: BusFailure(code: -result).description)
        }
        guard result == -EEXIST else {
            guard result >= 0 else {
                throw .registrationFailed(what: "the name \(MPRISObject.busName)", reason: BusFailure(code: -result).description)
            }
            return MPRISObject.busName
        }
        let instance = MPRISObject.busName + ".instance\(getpid())"
        result = try request(instance, on: bus, before: deadline)
        guard result >= 0 else { throw .registrationFailed(what: "the name \(instance)", reason: BusFailure(code: -result).description) }
        return instance
    }

    /// Asks for `name` and serves the bus until the answer comes, as `sd_bus_request_name` does, but
    /// no later than `deadline` (microseconds of CLOCK_MONOTONIC): 0 once the name is taken, or a
    /// negative errno (-EEXIST: another has it).
    private static func request(_ name: String, on bus: OpaquePointer, before deadline: UInt64) throws(MediaPlayerServiceError) -> Int32 {
        let answer = NameAnswer()
        var slot: OpaquePointer?
        var result = sd_bus_request_name_async(bus, &slot, name, 0, NameAnswer.receive, Unmanaged.passUnretained(answer).toOpaque())
        guard result >= 0 else { return result }
        defer { sd_bus_slot_unref(slot) }
        while answer.result == nil {
            result = sd_bus_process(bus, nil)
            guard result >= 0 else { return result }
            if result > 0 { continue }
            let now = monotonicMicroseconds()
            guard now < deadline else {
                throw .noSessionBus(reason: "the session bus did not answer within \(nameTimeoutMicroseconds / 1_000_000) s")
            }
            result = sd_bus_wait(bus, deadline - now)
            guard result >= 0 else { return result }
        }
        return withExtendedLifetime(answer) { answer.result! }
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    /// Makes the loop look at the exchange now.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Serves the bus until the exchange says it is closing: calls, property reads and writes,
    /// and the signals the play loop's changes call for. A bus that goes away ends the serving,
    /// not the loop, which then only waits to close.
    func run() {
        var serving = true
        while true {
            if serving {
                var processed: Int32
                repeat { processed = sd_bus_process(bus, nil) } while processed > 0
                serving = processed == 0
            }
            let (properties, seeked, closing) = exchange.contents.withLock { contents in
                defer {
                    contents.changedProperties = []
                    contents.seeked = false
                }
                return (contents.changedProperties, contents.seeked, contents.isClosing)
            }
            if closing { return }
            if serving {
                if !properties.isEmpty { emitPropertiesChanged(properties) }
                if seeked { emitSeeked() }
            }
            waitForWork(includingBus: serving)
        }
    }

    private func waitForWork(includingBus: Bool) {
        var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        var timeout: Int32 = -1
        if includingBus {
            descriptors.append(pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0))
            var deadline: UInt64 = 0
            if sd_bus_get_timeout(bus, &deadline) >= 0, deadline != .max {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
                timeout = deadline <= nowMicroseconds ? 0 : Int32(min((deadline - nowMicroseconds + 999) / 1000, UInt64(Int32.max)))
            }
        }
        _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
        var drained = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &drained, drained.count) > 0 {}
    }

    private func emitPropertiesChanged(_ names: [String]) {
        var strings = names.map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        _ = sd_bus_emit_properties_changed_strv(bus, MPRISObject.path, MPRISObject.playerInterface, &strings)
    }

    private func emitSeeked() {
        var signal: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &signal, MPRISObject.path, MPRISObject.playerInterface, "Seeked") >= 0, let signal else { return }
        defer { sd_bus_message_unref(signal) }
        let position = exchange.contents.withLock { MediaPlayerExchange.position(in: $0, at: .now) }
        guard (try? BusValue.int64(position).append(to: signal)) != nil else { return }
        _ = sd_bus_send(bus, signal, nil)
    }

    // MARK: The C functions sd-bus calls, on the loop's thread (inside sd_bus_process).

    /// The exchange the object was registered with: the connection holds it as long as the bus.
    private static func exchange(_ userdata: UnsafeMutableRawPointer?) -> MediaPlayerExchange {
        Unmanaged<MediaPlayerExchange>.fromOpaque(userdata!).takeUnretainedValue()
    }

    private static let handleMethod: BusInterfaceTable.MethodHandler = { message, userdata, busError in
        guard let message else { return -EINVAL }
        let method = String(cString: sd_bus_message_get_member(message))
        do throws(MediaPlayerCallError) {
            if let request = try MediaPlayerCall.method(method).request(arguments: BusArguments(message: message)) {
                exchange(userdata).contents.withLock { $0.requests.append(request) }
            }
        } catch {
            return refuse(error, into: busError)
        }
        var reply: OpaquePointer?
        var result = sd_bus_message_new_method_return(message, &reply)
        guard result >= 0, let reply else { return result }
        result = sd_bus_send(nil, reply, nil)
        sd_bus_message_unref(reply)
        return result
    }

    private static let getProperty: sd_bus_property_get_t = { _, _, _, property, reply, userdata, _ in
        guard let property, let reply else { return -EINVAL }
        let value = exchange(userdata).contents.withLock { contents in
            MPRISObject.value(of: String(cString: property), state: contents.state, position: MediaPlayerExchange.position(in: contents, at: .now))
        }
        guard let value else { return -ENOENT }
        do throws(BusFailure) {
            try value.append(to: reply)
        } catch {
            return -error.code
        }
        return 1
    }

    private static let setProperty: sd_bus_property_set_t = { _, _, _, property, value, userdata, busError in
        guard let property, let value else { return -EINVAL }
        do throws(MediaPlayerCallError) {
            if let request = try MediaPlayerCall.settingProperty(String(cString: property)).request(arguments: BusArguments(message: value)) {
                exchange(userdata).contents.withLock { $0.requests.append(request) }
            }
        } catch {
            return refuse(error, into: busError)
        }
        return 1
    }

    /// Fills in the D-Bus error sd-bus sends back for a refused call.
    private static func refuse(_ refusal: MediaPlayerCallError, into error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        sd_bus_error_set(error, refusal.name, refusal.message)
    }
}
