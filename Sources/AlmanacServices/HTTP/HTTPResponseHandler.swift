/// What `CurlTransfer` hands an answer to, on the transfer thread (`CurlLoop`): neither
/// method may block, since every transfer of the process waits meanwhile.
protocol HTTPResponseHandler: AnyObject, Sendable {
    /// The head of the answer (never a 1xx, never a redirect `HTTPExchange` follows).
    /// `false` ends the transfer, its body unread.
    func received(_ head: HTTPHead) -> Bool
    /// The next bytes of the body (inflated, when the request asked for compression).
    /// `false` ends the transfer.
    func received(_ bytes: UnsafeRawBufferPointer) -> Bool
}
