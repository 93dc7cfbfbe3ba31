/// Why a test's set-up (a server, a terminal, a program) failed, said as the test report shows it.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
