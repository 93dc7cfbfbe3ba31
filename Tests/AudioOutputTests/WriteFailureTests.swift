import Foundation
import SystemPackage
import Testing

@testable import AudioOutput

/// Writes that fail for real, and leave nothing under the final name.
struct WriteFailureTests {
    /// `/dev/full` answers every write with ENOSPC: a full disk, without filling one. The writer is
    /// given its descriptor in place of a temporary file's.
    @Test(arguments: AudioFileFormat.fileFormats)
    func aFullDiskIsCalledSo(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("song.\(format.fileExtension)")
        let fd = open("/dev/full", O_RDWR | O_CLOEXEC)
        try #require(fd >= 0, "/dev/full: \(String(cString: strerror(errno)))")
        let error = try #require(throws: AudioFileError.self) {
            // The temporary path is never created: the writer only removes or renames it.
            let writer = try AudioFileWriter(
                fileDescriptor: fd, temporaryPath: FilePath(folder.file(".song.part-test")),
                path: FilePath(path), format: format, encoding: .pcm16, sampleRate: 48_000, channels: 2
            )
            let block = TestSignal.sine()
            for _ in 0..<20 { try writer.write(block) }
            try writer.finish()
        }
        #expect(error == .writeFailed(path: FilePath(path), cause: .system(errno: ENOSPC)))
        #expect(error.description == "\(path): cannot write the file: disk full (no space left on device)")
        #expect(try folder.contents().isEmpty)
    }

    /// A file size limit makes the kernel refuse writes past it (EFBIG, once SIGXFSZ is ignored), on
    /// the real file system and through the writer's own temporary file. It is set in a child
    /// process, so that the other tests, running alongside in this one, are not limited.
    @Test(arguments: AudioFileFormat.fileFormats)
    func aFileSizeLimitFailsTheRenderAndLeavesNothing(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("song.\(format.fileExtension)")
        let block = TestSignal.sine()
        // The same work once here first, so that the child runs code whose runtime set-up is done:
        // after fork() only async-signal-safe work is sure to be safe, and this keeps close to it.
        #expect(Self.render(path: path, format: format, block: block, blocks: 2) == "finished")
        try FileManager.default.removeItem(atPath: path)

        var pipeEnds: [Int32] = [-1, -1]
        try #require(pipe(&pipeEnds) == 0)
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            close(pipeEnds[0])
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: 128 * 1024, rlim_max: 128 * 1024)
            setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
            // 200 blocks of a quarter of a second: megabytes in every format, even Vorbis.
            let message = Self.render(path: path, format: format, block: block, blocks: 200)
            _ = message.utf8CString.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count - 1) }
            _exit(0)
        }
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        let message = Self.readAll(from: pipeEnds[0], waitingAtMost: 60)
        if message == nil { kill(child, SIGKILL) }
        var status: Int32 = 0
        waitpid(child, &status, 0)

        #expect(message == "\(path): cannot write the file: file too large")
        #expect(try folder.contents().isEmpty)
    }

    /// Writes `blocks` times `block` into a new file and finishes it: "finished", or the error's message.
    private static func render(path: String, format: AudioFileFormat, block: [Float], blocks: Int) -> String {
        do {
            let writer = try AudioFileWriter(
                path: FilePath(path), format: format, encoding: .pcm16, sampleRate: TestSignal.sampleRate, channels: TestSignal.channels)
            for _ in 0..<blocks { try writer.write(block) }
            try writer.finish()
            return "finished"
        } catch {
            return error.description
        }
    }

    /// Everything written to `fd` until its other end closes, or nil after `seconds`.
    private static func readAll(from fd: Int32, waitingAtMost seconds: Int32) -> String? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let polled = poll(&ready, 1, seconds * 1000)
            if polled < 0, errno == EINTR { continue }
            guard polled > 0 else { return nil }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
    }
}
