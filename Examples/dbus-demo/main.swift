import DBus
import DBusTestSupport
let bus = try PrivateBus()
let s = try await Connection.connect(to: bus.address)
let c = try await Connection.connect(to: bus.address)
print("connected", s.uniqueName as Any, c.uniqueName as Any)
let iface = try Interface("org.almanac.Test1", methods: [
  Method("Echo", inputs: [Argument("text", .string)], outputs: [Argument("text", .string)]) { call, reply in
     let (text) = try call.arguments(String.self)
     try reply.write(text)
  }])
try s.export([iface], at: ObjectPath("/org/almanac/Test"))
print("exported")
let r = try await c.call(s.uniqueName!, path: ObjectPath("/org/almanac/Test"), interface: InterfaceName("org.almanac.Test1"), method: MemberName("Echo"), arguments: "hi")
print("reply", r, try r.arguments(String.self))
await c.close()
print("closed")
