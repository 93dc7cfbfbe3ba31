@testable import MediaPlayerService

/// A call's arguments given as values, read in order as sd-bus reads a message's: a read of
/// another type than the next value's, or past the last, fails as a broken message does.
final class ListedArguments: CallArguments {
    enum Value {
        case string(String)
        case objectPath(String)
        case int64(Int64)
        case bool(Bool)
        case double(Double)
    }

    private var values: ArraySlice<Value>

    init(_ values: [Value]) {
        self.values = values[...]
    }

    /// The next value as `read` takes it: nil when it is of another type.
    private func next<T>(_ read: (Value) -> T?) throws(MediaPlayerCallError) -> T {
        guard let value = values.popFirst() else { throw .unreadableArguments("no more arguments") }
        guard let taken = read(value) else { throw .unreadableArguments("not the type asked for: \(value)") }
        return taken
    }

    func string() throws(MediaPlayerCallError) -> String {
        try next { if case .string(let text) = $0 { text } else { nil } }
    }

    func objectPath() throws(MediaPlayerCallError) -> String {
        try next { if case .objectPath(let path) = $0 { path } else { nil } }
    }

    func int64() throws(MediaPlayerCallError) -> Int64 {
        try next { if case .int64(let number) = $0 { number } else { nil } }
    }

    func bool() throws(MediaPlayerCallError) -> Bool {
        try next { if case .bool(let flag) = $0 { flag } else { nil } }
    }

    func double() throws(MediaPlayerCallError) -> Double {
        try next { if case .double(let number) = $0 { number } else { nil } }
    }
}
