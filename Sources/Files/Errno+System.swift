import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

extension Errno {
    /// This thread's last failure.
    static var current: Errno { Errno(rawValue: errno) }

    /// What `body`, a call of swift-system's (which throws untyped errors, though only `Errno`s),
    /// returns, or its `Errno`.
    static func typed<Result>(_ body: () throws -> Result) throws(Errno) -> Result {
        do {
            return try body()
        } catch {
            throw error as? Errno ?? .ioError
        }
    }
}
