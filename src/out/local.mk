# out layer
