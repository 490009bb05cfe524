print("almanacd: not built yet")
