import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// One D-Bus interface as sd-bus wants it described (`sd_bus_add_object_vtable`): an array of
/// `sd_bus_vtable` entries naming its methods, properties and signals, all served by the same
/// three C functions. sd-bus reads the array and its strings for as long as the object is
/// registered, so both live in memory of their own until this table goes, after the bus.
///
/// The entries are made here, not with sd-bus' C macros, which Swift cannot use; memory is zeroed
/// first, as the header asks of tables not in static storage.
final class BusInterfaceTable {
    enum Member {
        case method(name: String, arguments: String, argumentNames: [String], result: String)
        case property(name: String, signature: String, changes: PropertyChanges, writable: Bool)
        case signal(name: String, signature: String, argumentNames: [String])
    }

    enum PropertyChanges {
        /// Never, while the object lives.
        case never
        /// PropertiesChanged carries the new value.
        case signalled
        /// All the time, and never signalled (Position: clients ask, or follow Seeked).
        case unsignalled
    }

    typealias MethodHandler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<sd_bus_error>?) -> Int32

    let interface: String
    let entries: UnsafeMutablePointer<sd_bus_vtable>
    private let count: Int
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(interface: String, members: [Member], method: MethodHandler, get: sd_bus_property_get_t, set: sd_bus_property_set_t) {
        self.interface = interface
        count = members.count + 2
        entries = .allocate(capacity: count)
        UnsafeMutableRawPointer(entries).initializeMemory(as: UInt8.self, repeating: 0, count: count * MemoryLayout<sd_bus_vtable>.stride)

        entries[0].type = UInt8(_SD_BUS_VTABLE_START)
        entries[0].x.start.element_size = MemoryLayout<sd_bus_vtable>.size
        entries[0].x.start.features = UInt64(_SD_BUS_VTABLE_PARAM_NAMES)
        // The library's own symbol, as the C macro takes its address (a Swift copy of the value would not do).
        entries[0].x.start.vtable_format_reference = dlsym(nil, "sd_bus_object_vtable_format").map {
            UnsafePointer($0.assumingMemoryBound(to: UInt32.self))
        }
        for (index, member) in members.enumerated() {
            let entry = entries + index + 1
            switch member {
            case .method(let name, let arguments, let argumentNames, let result):
                entry.pointee.type = UInt8(_SD_BUS_VTABLE_METHOD)
                entry.pointee.x.method.member = keep(name)
                entry.pointee.x.method.signature = keep(arguments)
                entry.pointee.x.method.result = keep(result)
                entry.pointee.x.method.handler = method
                // Each name ends in NUL; the results' names (none here) follow the arguments'.
                entry.pointee.x.method.names = keep(argumentNames.map { $0 + "\0" }.joined())
            case .property(let name, let signature, let changes, let writable):
                entry.pointee.type = UInt8(writable ? _SD_BUS_VTABLE_WRITABLE_PROPERTY : _SD_BUS_VTABLE_PROPERTY)
                switch changes {
                case .never: entry.pointee.flags = UInt64(SD_BUS_VTABLE_PROPERTY_CONST)
                case .signalled: entry.pointee.flags = UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
                case .unsignalled: break
                }
                entry.pointee.x.property.member = keep(name)
                entry.pointee.x.property.signature = keep(signature)
                entry.pointee.x.property.get = get
                if writable { entry.pointee.x.property.set = set }
            case .signal(let name, let signature, let argumentNames):
                entry.pointee.type = UInt8(_SD_BUS_VTABLE_SIGNAL)
                entry.pointee.x.signal.member = keep(name)
                entry.pointee.x.signal.signature = keep(signature)
                entry.pointee.x.signal.names = keep(argumentNames.map { $0 + "\0" }.joined())
            }
        }
        entries[count - 1].type = UInt8(_SD_BUS_VTABLE_END)
    }

    deinit {
        strings.forEach { $0.deallocate() }
        entries.deallocate()
    }

    /// A C copy of `text` that lives as long as the table. Copied byte by byte, with a NUL after
    /// the last: the argument names hold NULs of their own, which `strdup` would stop at.
    private func keep(_ text: String) -> UnsafePointer<CChar> {
        let bytes = Array(text.utf8)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
        copy[bytes.count] = 0
        strings.append(copy)
        return UnsafePointer(copy)
    }
}
