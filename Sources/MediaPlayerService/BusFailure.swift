#if canImport(Glibc)
    import Glibc
#endif

/// An sd-bus call that failed: sd-bus returns a negative errno.
struct BusFailure: Error, CustomStringConvertible {
    /// The errno, positive.
    let code: Int32

    var description: String { String(cString: strerror(code)) }

    /// The result of an sd-bus call, or the failure it reports.
    @discardableResult
    static func check(_ result: Int32) throws(BusFailure) -> Int32 {
        guard result >= 0 else { throw BusFailure(code: -result) }
        return result
    }
}
