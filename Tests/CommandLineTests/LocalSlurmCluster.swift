import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A one-node Slurm cluster on localhost for one test (Debian's slurm-wlm and munge): munged with
/// its own key and socket, slurmctld and slurmd in the foreground (`-D`) as child processes, with
/// a slurm.conf, state and spool folders in a temporary folder of their own; all stopped when
/// dropped. Root only: slurmd runs jobs as their users.
final class LocalSlurmCluster {
    /// Everything the cluster keeps: an ASCII path, short enough for munge's socket name.
    let folder: String
    var configuration: String { folder + "/slurm.conf" }
    /// munged, slurmctld and slurmd, in the order they started.
    private var daemons: [pid_t] = []

    /// Whether the tests may start one: they must run as root.
    static var canRun: Bool { getuid() == 0 }

    init() throws {
        for program in ["/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/sbatch"] {
            try #require(FileManager.default.isExecutableFile(atPath: program), "\(program) is missing: install slurm-wlm and munge (make deps)")
        }
        folder = "/tmp/smfplay-slurm-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        for sub in ["state", "spool", "munge", "log"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        // munged insists on a key only its user reads, and a socket folder everyone may enter.
        chmod(folder, 0o755)
        chmod(folder + "/munge", 0o755)
        var key = [UInt8](repeating: 0, count: 1024)
        for index in key.indices { key[index] = UInt8.random(in: 0...255) }
        try Data(key).write(to: URL(fileURLWithPath: folder + "/munge/key"))
        chmod(folder + "/munge/key", 0o400)
        // Ports of its own, so that another test's cluster (or a real one) is not reached.
        let port = Int.random(in: 20_000...39_000)
        try slurmConfiguration(controllerPort: port, nodePort: port + 1).write(toFile: configuration, atomically: true, encoding: .utf8)

        try start(
            "/usr/sbin/munged",
            [
                "-F", "--key-file=\(folder)/munge/key", "--socket=\(folder)/munge/socket", "--pid-file=\(folder)/munge/pid",
                "--log-file=\(folder)/log/munged.log", "--seed-file=\(folder)/munge/seed",
            ], log: "munged.out")
        try waitFor("munged's socket") { FileManager.default.fileExists(atPath: self.folder + "/munge/socket") }
        try start("/usr/sbin/slurmctld", ["-D", "-f", configuration], log: "slurmctld.out")
        try start("/usr/sbin/slurmd", ["-D", "-N", "localhost", "-f", configuration], log: "slurmd.out")
        try waitFor("the node to be idle") { (try? self.run("/usr/bin/sinfo", ["-h", "-o", "%T"]).stdout.contains("idle")) == true }
    }

    deinit {
        // slurmd, then slurmctld, then munged; each gets 5 seconds to stop before it is killed.
        for daemon in daemons.reversed() {
            kill(daemon, SIGTERM)
            var status: Int32 = 0
            var ended = false
            for _ in 0..<50 {
                ended = waitpid(daemon, &status, WNOHANG) == daemon
                if ended { break }
                usleep(100_000)
            }
            if !ended {
                kill(daemon, SIGKILL)
                waitpid(daemon, &status, 0)
            }
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs a Slurm client (`sbatch`, `sinfo`) against this cluster.
    func run(_ program: String, _ arguments: [String], environment: [String: String] = [:], timeLimit: TimeInterval = 90) throws -> Command.Result {
        var environment = environment.isEmpty ? ProcessInfo.processInfo.environment : environment
        environment["SLURM_CONF"] = configuration
        return try Command(URL(fileURLWithPath: program), arguments: arguments, environment: environment, timeLimit: timeLimit).run()
    }

    /// The daemons' logs, for a failing test's message.
    var logs: String {
        ["munged.out", "slurmctld.out", "slurmd.out", "slurmctld.log", "slurmd.log"].map { name in
            "--- \(name)\n" + ((try? String(contentsOfFile: folder + "/log/" + name, encoding: .utf8)) ?? "(none)").suffix(3_000)
        }.joined(separator: "\n")
    }

    private func slurmConfiguration(controllerPort: Int, nodePort: Int) -> String {
        let cpus = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        return """
            ClusterName=smfplaytest
            SlurmctldHost=localhost
            SlurmctldPort=\(controllerPort)
            SlurmdPort=\(nodePort)
            SlurmUser=root
            SlurmdUser=root
            AuthType=auth/munge
            AuthInfo=socket=\(folder)/munge/socket
            CredType=cred/munge
            StateSaveLocation=\(folder)/state
            SlurmdSpoolDir=\(folder)/spool
            SlurmctldPidFile=\(folder)/slurmctld.pid
            SlurmdPidFile=\(folder)/slurmd.pid
            ProctrackType=proctrack/linuxproc
            TaskPlugin=task/none
            SelectType=select/cons_tres
            SelectTypeParameters=CR_Core
            SchedulerType=sched/backfill
            MpiDefault=none
            ReturnToService=2
            SlurmctldLogFile=\(folder)/log/slurmctld.log
            SlurmdLogFile=\(folder)/log/slurmd.log
            NodeName=localhost NodeAddr=127.0.0.1 CPUs=\(cpus) State=UNKNOWN
            PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP

            """
    }

    /// Starts a daemon with clean signals and no descriptor but its output (see
    /// `PulseAudioServer.spawn`): a daemon holding another test's pipe open would hang that test.
    private func start(_ program: String, _ arguments: [String], log: String) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SLURM_CONF"] = configuration
        let output = open(folder + "/log/" + log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(output) }
        daemons.append(try PulseAudioServer.spawn(program, arguments, environment: environment, standardOutput: output))
    }

    private var daemonsRunning: Bool {
        daemons.allSatisfy { daemon in
            var status: Int32 = 0
            return waitpid(daemon, &status, WNOHANG) == 0
        }
    }

    private func waitFor(_ what: String, seconds: Double = 30, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline || !daemonsRunning {
                throw TestFailure("the local Slurm cluster did not start (waiting for \(what)):\n\(logs)")
            }
            usleep(100_000)
        }
    }
}
