/// A type whose `a{sv}` `ValueEncoder` writes with its keys sorted, whatever order the type
/// encodes them in and whatever the encoder's `keyOrder`: for a type whose wire order is
/// by key while its properties are declared in another order.
public protocol SortedKeys: CodingTraited {}
