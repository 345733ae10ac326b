# plan layer
