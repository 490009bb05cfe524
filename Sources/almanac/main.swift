print("almanac: not built yet")
