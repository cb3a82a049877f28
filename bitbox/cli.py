def main(): print("bitbox")
