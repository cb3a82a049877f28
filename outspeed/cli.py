def main(): 
    from bitbox_config import config_path
    print(config_path("probe.yaml").read_text())
