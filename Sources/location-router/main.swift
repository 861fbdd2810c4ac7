print("location-router")
