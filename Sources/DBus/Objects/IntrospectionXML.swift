/// Builds the `org.freedesktop.DBus.Introspectable` document for one object path.
enum IntrospectionXML {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static func document(interfaces: [Interface], isManager: Bool, children: [String]) -> String {
        var xml = header + "<node>\n"
        xml += standardInterfaces
        if isManager { xml += objectManagerInterface }
        for interface in interfaces { append(interface, to: &xml) }
        for child in children { xml += " <node name=\"\(escape(child))\"/>\n" }
        xml += "</node>\n"
        return xml
    }

    private static func append(_ interface: Interface, to xml: inout String) {
        xml += " <interface name=\"\(interface.name)\">\n"
        for name in interface.methodOrder {
            guard let method = interface.methods[name] else { continue }
            xml += "  <method name=\"\(method.name)\">\n"
            for argument in method.inputs { xml += "   " + arg(argument, direction: "in") }
            for argument in method.outputs { xml += "   " + arg(argument, direction: "out") }
            xml += "  </method>\n"
        }
        for signal in interface.signals {
            xml += "  <signal name=\"\(signal.name)\">\n"
            for argument in signal.arguments { xml += "   " + arg(argument, direction: nil) }
            xml += "  </signal>\n"
        }
        for name in interface.propertyOrder {
            guard let property = interface.properties[name] else { continue }
            xml += "  <property name=\"\(property.name)\" type=\"\(escape(property.type.signature))\" access=\"\(property.access.rawValue)\""
            if property.emitsChange {
                xml += "/>\n"
            } else {
                xml += ">\n   <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\"/>\n  </property>\n"
            }
        }
        xml += " </interface>\n"
    }

    private static func arg(_ argument: Argument, direction: String?) -> String {
        var text = "<arg"
        if !argument.name.isEmpty { text += " name=\"\(escape(argument.name))\"" }
        text += " type=\"\(escape(argument.type.signature))\""
        if let direction { text += " direction=\"\(direction)\"" }
        return text + "/>\n"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    private static let standardInterfaces = """
         <interface name="org.freedesktop.DBus.Introspectable">
          <method name="Introspect">
           <arg name="xml_data" type="s" direction="out"/>
          </method>
         </interface>
         <interface name="org.freedesktop.DBus.Peer">
          <method name="Ping"/>
          <method name="GetMachineId">
           <arg name="machine_uuid" type="s" direction="out"/>
          </method>
         </interface>
         <interface name="org.freedesktop.DBus.Properties">
          <method name="Get">
           <arg name="interface_name" type="s" direction="in"/>
           <arg name="property_name" type="s" direction="in"/>
           <arg name="value" type="v" direction="out"/>
          </method>
          <method name="GetAll">
           <arg name="interface_name" type="s" direction="in"/>
           <arg name="props" type="a{sv}" direction="out"/>
          </method>
          <method name="Set">
           <arg name="interface_name" type="s" direction="in"/>
           <arg name="property_name" type="s" direction="in"/>
           <arg name="value" type="v" direction="in"/>
          </method>
          <signal name="PropertiesChanged">
           <arg name="interface_name" type="s"/>
           <arg name="changed_properties" type="a{sv}"/>
           <arg name="invalidated_properties" type="as"/>
          </signal>
         </interface>

        """

    private static let objectManagerInterface = """
         <interface name="org.freedesktop.DBus.ObjectManager">
          <method name="GetManagedObjects">
           <arg name="objects" type="a{oa{sa{sv}}}" direction="out"/>
          </method>
          <signal name="InterfacesAdded">
           <arg name="object" type="o"/>
           <arg name="interfaces" type="a{sa{sv}}"/>
          </signal>
          <signal name="InterfacesRemoved">
           <arg name="object" type="o"/>
           <arg name="interfaces" type="as"/>
          </signal>
         </interface>

        """
}
