# metrics layer
