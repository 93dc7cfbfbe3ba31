/// A message a seek replays, with the index of the song's event it comes from: replayed in the
/// song's order, the events a seek keeps act on one another as they did when played.
struct OrderedMessage {
    var order: Int
    var message: SeekPlan.Message

    init(order: Int, message: SeekPlan.Message) {
        self.order = order
        self.message = message
    }

    /// A channel message.
    init(order: Int, status: UInt8, channel: Int, data1: UInt8, data2: UInt8) {
        self.init(order: order, message: .channel(status: status, channel: UInt8(channel), data1: data1, data2: data2))
    }
}
