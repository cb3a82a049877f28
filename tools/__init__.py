"""Hardware-testing tools (installed as `bitbox_tools`): emulator, sniffer, benchmarks."""
