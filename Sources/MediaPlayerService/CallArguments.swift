/// The arguments of an incoming call (or the value of a property being set), read in order as
/// the member's signature says: what `MPRISObject` turns into requests. `BusArguments` reads them
/// from an sd-bus message; the tests and fuzzing give them without a bus.
public protocol CallArguments {
    func string() throws(MediaPlayerCallError) -> String
    func objectPath() throws(MediaPlayerCallError) -> String
    func int64() throws(MediaPlayerCallError) -> Int64
    func bool() throws(MediaPlayerCallError) -> Bool
    func double() throws(MediaPlayerCallError) -> Double
}
