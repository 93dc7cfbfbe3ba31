#if canImport(Glibc)
    import Glibc
#endif

/// Starts a program with a clean signal mask and default signal handlers. Children inherit the
/// mask of the thread that starts them, and the test runner's threads block SIGINT and SIGTERM:
/// started with Foundation's `Process`, a child would never see the signal that stops it.
/// Returns the child's pid, or the `posix_spawn` error number.
public func spawnWithCleanSignals(
    _ path: String, _ arguments: [String], environment: [String: String],
    actions: inout posix_spawn_file_actions_t, newProcessGroup: Bool = false
) -> Result<pid_t, SpawnError> {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if newProcessGroup {
        posix_spawnattr_setpgroup(&attributes, 0)
        flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    return result == 0 ? .success(pid) : .failure(SpawnError(path: path, number: result))
}

/// Why a program could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    public let path: String
    public let number: Int32
    public var description: String { "cannot run \(path): \(String(cString: strerror(number)))" }
}
